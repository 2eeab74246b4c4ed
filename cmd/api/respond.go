package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	quickjson "github.com/segmentio/encoding/json" // decodedQuickly's, for quickDecoded bodies only

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/app/query"
	"github.com/a2e-automation/app/internal/pgpool"
)

// maxBody bounds every JSON request body.
const maxBody = 64 << 10

// httpError is an error with the status, code and message a client sees.
type httpError struct {
	Status  int
	Code    string // one of the error codes (codes.go); empty: the status's own
	Message string
	Fields  map[string]string
}

func (e *httpError) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Message) }

func errStatus(status int, format string, args ...any) *httpError {
	return &httpError{Status: status, Message: fmt.Sprintf(format, args...)}
}

// errCoded is errStatus with a code more precise than the status's own.
func errCoded(status int, code, format string, args ...any) *httpError {
	return &httpError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// errorBody is the JSON of every error answer: a stable machine-readable
// code, the message for people, the request's id, and per call the
// problem of each field, the balance (402) or success: false.
type errorBody struct {
	Code             string            `json:"code"`
	Message          string            `json:"message"`
	RequestID        string            `json:"requestId"`
	Errors           map[string]string `json:"errors,omitempty"`
	CreditsRemaining *int64            `json:"creditsRemaining,omitempty"`
	Success          *bool             `json:"success,omitempty"`
	*spendLimitBody                    // spend_limit_reached: the limit, what was spent, when it resets
}

// encode writes v as JSON with status.
func encode(w http.ResponseWriter, status int, v any) {
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// jsonContentType is the Content-Type of every JSON answer, made once.
var jsonContentType = headerValue("application/json; charset=utf-8")

// validator is a request that checks itself; it returns the problem of each
// field, the spec's message where it gives one.
type validator interface {
	Valid(ctx context.Context) map[string]string
}

// normalizer is a request that puts its fields into their one stored form
// (such as an email address's) before it is validated.
type normalizer interface{ normalize() }

// decode reads a JSON body into T: JSON content type, at most maxBody bytes,
// one value, no unknown fields, and T's own validation.
func decode[T any](r *http.Request) (T, error) {
	body, err := readJSONBody(r)
	if err != nil {
		var v T
		return v, err
	}
	return decodeJSON[T](r, body)
}

// readJSONBody reads a JSON request's body: JSON content type, at most
// maxBody bytes.
func readJSONBody(r *http.Request) ([]byte, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if !plainJSON(ct) {
			if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
				return nil, errStatus(http.StatusUnsupportedMediaType, "Content-Type must be application/json")
			}
		}
	} else if r.ContentLength != 0 {
		return nil, errStatus(http.StatusUnsupportedMediaType, "Content-Type must be application/json")
	}
	// A compressed body is refused, not read as malformed JSON: bodies are
	// small (maxBody), so compression would save little and cost a
	// decompression-bomb guard.
	if ce := r.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return nil, &httpError{Status: http.StatusUnsupportedMediaType, Message: "Content-Encoding is not supported: send the body uncompressed",
			Fields: map[string]string{"Content-Encoding": "Content-Encoding must be absent (or identity)"}}
	}
	body, err := readBody(r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errStatus(http.StatusRequestEntityTooLarge, "Request body is too large")
		}
		return nil, errStatus(http.StatusBadRequest, "The request body could not be read")
	}
	return body, nil
}

// readBody reads r's body, at most maxBody bytes (*http.MaxBytesError
// past them). A body of a known length within maxBody is read into one
// buffer of that length; io.ReadAll would start at 512 bytes (issue 36).
func readBody(r *http.Request) ([]byte, error) {
	if n := r.ContentLength; n > 0 && n <= maxBody {
		// net/http's body of a declared length ends there: nothing more to read.
		body := make([]byte, n)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, err
		}
		return body, nil
	}
	return io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody))
}

// plainJSON reports whether ct is one of the JSON content types clients
// send as is, which need no parsing (mime.ParseMediaType makes a map for
// each call; issue 36).
func plainJSON(ct string) bool {
	switch ct {
	case "application/json", "application/json; charset=utf-8", "application/json;charset=utf-8", "application/json; charset=UTF-8":
		return true
	}
	return false
}

// decodeJSON decodes body, read by readJSONBody, into T: one value, no
// unknown fields, and T's own validation.
func decodeJSON[T any](r *http.Request, body []byte) (T, error) {
	var v T
	if field, bad := bodyTextProblem(body); bad {
		msg := fmt.Sprintf("%s %s", field, textRule)
		return v, &httpError{Status: http.StatusBadRequest, Message: msg, Fields: map[string]string{field: msg}}
	}
	if !decodedQuickly(body, &v) {
		if err := decodeStd(body, &v); err != nil {
			return v, err
		}
	}
	if n, ok := any(&v).(normalizer); ok {
		n.normalize()
	}
	if val, ok := any(&v).(validator); ok {
		if problems := val.Valid(r.Context()); len(problems) > 0 {
			return v, invalid(problems)
		}
	}
	return v, nil
}

// quickDecoded marks a request type whose body decodeJSON may read with
// segmentio/encoding first: only strings, so the two decoders agree on
// every value they both accept (TestQuickDecodeAgrees); the metered calls'
// bodies, read on every spend (issue 36).
type quickDecoded interface{ quickDecoded() }

// decodedQuickly decodes body into v with segmentio/encoding (~0.1 µs and 2
// allocations against encoding/json's Decoder's ~1 µs and 9) when v's type
// is quickDecoded and body is one JSON value with only white space after
// it, and reports whether it did. Anything else, every error included, is
// left to decodeStd on a fresh v, so every refusal is encoding/json's, word
// for word.
func decodedQuickly[T any](body []byte, v *T) bool {
	if _, ok := any(v).(quickDecoded); !ok {
		return false
	}
	rest, err := quickjson.Parse(body, v, quickjson.DisallowUnknownFields)
	if err == nil && len(bytes.TrimLeft(rest, " \t\r\n")) == 0 {
		return true
	}
	var zero T
	*v = zero
	return false
}

// decodeStd decodes body into v with encoding/json: one value, no unknown
// fields; its errors are the client's 400s.
func decodeStd[T any](body []byte, v *T) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errStatus(http.StatusBadRequest, "Request body is empty")
		}
		he := errStatus(http.StatusBadRequest, "Malformed JSON: %s", jsonProblem(err))
		if field, problem := jsonFieldProblem(err); field != "" {
			he.Fields = map[string]string{field: problem}
		}
		return he
	}
	if dec.More() {
		return errStatus(http.StatusBadRequest, "Malformed JSON: more than one value")
	}
	return nil
}

// invalid is a 400 whose message is the first problem in field order.
func invalid(problems map[string]string) *httpError {
	msg := "Invalid request"
	for _, k := range sortedKeys(problems) {
		msg = problems[k]
		break
	}
	return &httpError{Status: http.StatusBadRequest, Message: msg, Fields: problems}
}

// jsonProblem says what is wrong with a body in the client's terms: JSON
// field names and kinds, never Go's type names.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("syntax error at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return "the body must be " + jsonKind(typ.Type)
		}
		return fmt.Sprintf("field %q must be %s", typ.Field, jsonKind(typ.Type))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the body ends too early"
	default:
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return "unknown field " + f
		}
		return "the body is not valid JSON"
	}
}

// jsonFieldProblem is the field an unknown or wrongly typed field error is
// about, and its problem, for the answer's errors (field → problem), as the
// SDKs surface them; "" for an error about the body as a whole.
func jsonFieldProblem(err error) (field, problem string) {
	if typ, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && typ.Field != "" {
		return typ.Field, fmt.Sprintf("%s must be %s", typ.Field, jsonKind(typ.Type))
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if name, uerr := strconv.Unquote(f); uerr == nil && name != "" {
			return name, fmt.Sprintf("%s is not a field of this request", name)
		}
	}
	return "", ""
}

// jsonKind names the JSON value that a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "a JSON object"
	}
}

// writeError maps err to its answer: the one place errors become HTTP.
// Unknown errors are logged and hidden.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	status, body := errorAnswer(w.Header(), r, log, err)
	if status == 0 {
		return // the client went away
	}
	body.RequestID = requestID(r.Context())
	if _, ok := errors.AsType[*successFlagged](err); ok {
		body.Success = new(bool) // false
	}
	encode(w, status, body)
}

// errorAnswer is err's status and body, and sets the headers that go with
// it (Retry-After); status 0 when the client went away and nothing is due.
func errorAnswer(w http.Header, r *http.Request, log *slog.Logger, err error) (int, errorBody) {
	if he, ok := errors.AsType[*httpError](err); ok {
		code := he.Code
		if code == "" {
			code = codeOfStatus(he.Status)
		}
		return he.Status, errorBody{Code: code, Message: he.Message, Errors: he.Fields}
	}
	if code := domain.ErrorCode(err); code != "" {
		status, public := statusOfDomain(code), codeOfDomain(err, code)
		if ra := domain.RetryAfter(err); ra > 0 {
			w.Set("Retry-After", strconv.Itoa(int(math.Ceil(ra.Seconds()))))
		}
		if code == domain.CodeUnavailable {
			log.WarnContext(r.Context(), "request answered unavailable", "method", r.Method, "path", r.URL.Path,
				"requestId", requestID(r.Context()), "err", err)
		}
		body := errorBody{Code: public, Message: domain.ErrorMessage(err), spendLimitBody: spendLimitOf(err)}
		if code == domain.CodeInsufficientCredits {
			// As the desktop API's successful answers do: the balance, then 0.
			body.CreditsRemaining = new(int64)
		}
		return status, body
	}
	if errors.Is(err, eventstore.ErrIdempotencyKeyReused) {
		return http.StatusUnprocessableEntity, errorBody{Code: CodeIdempotencyKeyReused,
			Message: "This Idempotency-Key was already used with a different request"}
	}
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		return 0, errorBody{}
	}
	if errors.Is(err, eventstore.ErrCommitUnknown) {
		log.ErrorContext(r.Context(), "commit outcome unknown", "method", r.Method, "path", r.URL.Path, "requestId", requestID(r.Context()), "err", err)
		w.Set("Retry-After", "2")
		return http.StatusServiceUnavailable, errorBody{Code: CodeCommitOutcomeUnknown, Message: commitUnknownMessage(r)}
	}
	if pgpool.Unavailable(err) {
		log.WarnContext(r.Context(), "database unavailable", "method", r.Method, "path", r.URL.Path, "requestId", requestID(r.Context()), "err", err)
		w.Set("Retry-After", "5")
		return http.StatusServiceUnavailable, errorBody{Code: CodeServiceUnavailable, Message: msgUnavailable}
	}
	message := "An unexpected error occurred"
	if pub, ok := errors.AsType[*publicFallback](err); ok {
		message = pub.message
	}
	log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "requestId", requestID(r.Context()), "err", err)
	return http.StatusInternalServerError, errorBody{Code: CodeInternalError, Message: message}
}

// publicFallback is an error whose answer, should it be unexpected (not a
// domain refusal, not an outage), is message rather than the generic one:
// the spec's server default of a call, such as "Failed to create
// subscription".
type publicFallback struct {
	err     error
	message string
}

func (e *publicFallback) Error() string { return e.err.Error() }
func (e *publicFallback) Unwrap() error { return e.err }

// withFallback gives err the answer message if it turns out unexpected.
func withFallback(err error, message string) error {
	if err == nil {
		return nil
	}
	return &publicFallback{err: err, message: message}
}

// successFlagged is an error of a call whose answers carry "success": the
// error answer then says "success": false beside its message.
type successFlagged struct{ err error }

func (e *successFlagged) Error() string { return e.err.Error() }
func (e *successFlagged) Unwrap() error { return e.err }

// withSuccessFalse marks err as the failure of a call that answers success.
func withSuccessFalse(err error) error {
	if err == nil {
		return nil
	}
	return &successFlagged{err: err}
}

// Answers when the database is out of reach (msgUnavailable: nothing was
// done) or was lost while committing (msgCommitUnknown: it may have been).
const (
	msgUnavailable   = "The service is briefly unavailable. Please try again in a few seconds."
	msgCommitUnknown = "We could not confirm whether this request was applied. Retry it with the same Idempotency-Key: " +
		"if it was applied, the retry returns the same answer and nothing is charged twice."
	// Without a key a plain retry could charge twice: a listing request is
	// pointed at the read-back; a VeRO check, which has none, at the key; a
	// dashboard call at the page it came from.
	msgCommitUnknownUnkeyed = "We could not confirm whether this request was applied. It was sent without an Idempotency-Key, " +
		"so check whether it was before sending it again (GET /v1/listings lists the newest listings first)."
	msgCommitUnknownUnkeyedVero = "We could not confirm whether this request was applied. It was sent without an Idempotency-Key, " +
		"so sending it again may charge it twice: send an Idempotency-Key with every metered request."
	msgCommitUnknownDashboard = "We could not confirm whether this was saved. Reload the page to see before trying again."
)

// commitUnknownMessage tells the client of a request whose COMMIT got no
// answer how to find out safely.
func commitUnknownMessage(r *http.Request) string {
	switch {
	case !strings.HasPrefix(r.URL.Path, "/v1/"):
		return msgCommitUnknownDashboard
	case r.Header.Get("Idempotency-Key") != "":
		return msgCommitUnknown
	case r.URL.Path == "/v1/listings":
		return msgCommitUnknownUnkeyed
	default:
		return msgCommitUnknownUnkeyedVero
	}
}

// metadata is the event metadata of a command caused by request r on behalf
// of actor (for example "account:<id>", "stripe", "staff:<id>").
func metadata(r *http.Request, actor string) eventstore.Metadata {
	id := requestID(r.Context())
	return eventstore.Metadata{Actor: actor, RequestID: id, CorrelationID: id}
}

// awaitProjections waits, bounded, until the read tables show the command
// that appended up to position, so the caller's next read sees its write.
// A slow projector delays the answer at most readYourWritesTimeout; it never
// fails a command that already happened.
func awaitProjections(d Deps, r *http.Request, position int64) {
	if err := d.Projections.WaitFor(r.Context(), position, readYourWritesTimeout); err != nil {
		d.Log.WarnContext(r.Context(), "read tables behind after a command", "position", position, "err", err)
	}
}

const readYourWritesTimeout = query.ReadYourWrites
