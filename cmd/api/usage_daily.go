package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/a2e-automation/app/internal/app/query"
)

// Issue 35, items 5 to 7: usage per UTC day as JSON and CSV, and the
// payments list as CSV, over a date range (?from=YYYY-MM-DD&to=YYYY-MM-DD,
// both included; absent: the last 30 days).

type usageDayResponse struct {
	Date       string `json:"date"` // YYYY-MM-DD, a UTC day
	Credits    int64  `json:"credits"`
	Listings   int64  `json:"listings"`
	VeroChecks int64  `json:"veroChecks"`
	Refunded   int64  `json:"refunded"`
}

type usageDailyResponse struct {
	Days []usageDayResponse `json:"days"`
}

// csvFlushEvery is how many CSV rows are written between flushes to the
// client.
const csvFlushEvery = 500

// maxKeyIDLength bounds the key filter: a key's id (GET /api/api-keys) is
// far shorter.
const maxKeyIDLength = 100

// dateRange reads the request's from and to, and the API key filter
// (&key=ID, a key's id from GET /api/api-keys) where byKey allows one; a bad
// one is a 400 naming its field. A key that is not the seller's has no
// usage: its days are zeros (the rows read are the seller's only).
func dateRange(r *http.Request, byKey bool) (query.Range, error) {
	q := r.URL.Query()
	if q.Has("key") && !byKey {
		return query.Range{}, invalid(map[string]string{"key": "key: payments are not made with an API key; filter usage by key instead"})
	}
	if k := q.Get("key"); q.Has("key") && (k == "" || len(k) > maxKeyIDLength) {
		return query.Range{}, invalid(map[string]string{"key": "key must be the id of one of your API keys"})
	}
	rg, err := query.ParseRange(q.Get("from"), q.Get("to"), time.Now())
	if re, ok := errors.AsType[*query.RangeError](err); ok {
		return query.Range{}, invalid(map[string]string{re.Field: re.Message})
	}
	rg.KeyID = q.Get("key")
	return rg, err
}

// handleUsageDaily answers GET /api/usage/daily: every day of the range,
// oldest first, days without usage with zeros; with key, that key's.
func handleUsageDaily(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rg, err := dateRange(r, true)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		days, err := d.App.Queries.DailyUsage.Daily(r.Context(), currentSession(r.Context()).AccountID, rg)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res := usageDailyResponse{Days: make([]usageDayResponse, 0, len(days))}
		for _, day := range days {
			res.Days = append(res.Days, usageDayResponse{Date: day.Date.Format(time.DateOnly), Credits: day.Credits,
				Listings: day.Listings, VeroChecks: day.VeroChecks, Refunded: day.Refunded})
		}
		encode(w, http.StatusOK, res)
	}
}

// handleUsageDailyCSV answers GET /api/usage/daily.csv (with key, that
// key's days).
func handleUsageDailyCSV(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rg, err := dateRange(r, true)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		streamCSV(w, r, d, "usage-daily", rg, []string{"date", "credits", "listings", "veroChecks", "refunded"},
			func(row func([]string) error) error {
				return d.App.Queries.DailyUsage.EachDay(r.Context(), currentSession(r.Context()).AccountID, rg, func(day query.Day) error {
					return row([]string{day.Date.Format(time.DateOnly), strconv.FormatInt(day.Credits, 10), strconv.FormatInt(day.Listings, 10),
						strconv.FormatInt(day.VeroChecks, 10), strconv.FormatInt(day.Refunded, 10)})
				})
			})
	}
}

// handleTransactionsCSV answers GET /api/transactions.csv: the payments
// made on the range's days, oldest first; amount in US dollars. invoiceUrl
// is Stripe's hosted invoice for a subscription's payment and our receipt
// page's absolute address for a paid credit purchase.
func handleTransactionsCSV(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rg, err := dateRange(r, false)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		streamCSV(w, r, d, "transactions", rg, []string{"id", "transactionDate", "description", "amount", "currency", "status", "invoiceUrl"},
			func(row func([]string) error) error {
				return d.App.Queries.DailyUsage.EachTransaction(r.Context(), currentSession(r.Context()).AccountID, rg, func(t query.Transaction) error {
					link := t.InvoiceURL
					if t.Receipt {
						link = receiptURL(d, t.ID) // a credit purchase's: our receipt page
					}
					return row([]string{t.ID, t.Date.UTC().Format(time.RFC3339), t.Description, dollars(t.AmountCents), "USD", t.Status, link})
				})
			})
	}
}

// dollars is cents as a plain decimal for spreadsheets: "29.99", "-0.50".
func dollars(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}

// streamCSV answers a CSV attachment (RFC 4180, UTF-8, CRLF lines): the
// header, then each row each as read calls row with it, flushed to the
// client every csvFlushEvery rows, so no answer is held in memory. An error
// after the first bytes cannot change the status: the connection is cut
// (http.ErrAbortHandler), so the client sees a failed download rather than
// a short file that looks whole.
func streamCSV(w http.ResponseWriter, r *http.Request, d Deps, name string, rg query.Range, header []string, read func(row func([]string) error) error) {
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{
		"filename": fmt.Sprintf("%s-%s-to-%s.csv", name, rg.From.Format(time.DateOnly), rg.To.Format(time.DateOnly))}))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	rc := http.NewResponseController(w)
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	n := 0
	err := cw.Write(header)
	if err == nil {
		err = read(func(rec []string) error {
			if err := cw.Write(rec); err != nil {
				return err
			}
			if n++; n%csvFlushEvery == 0 {
				cw.Flush()
				if err := cw.Error(); err != nil {
					return err
				}
				return rc.Flush()
			}
			return nil
		})
	}
	if err == nil {
		cw.Flush()
		err = cw.Error()
	}
	if err != nil {
		if n == 0 {
			// Nothing sent yet (the header waits in the csv writer's
			// buffer): an ordinary error answer still fits.
			h.Del("Content-Disposition")
			writeError(w, r, d.Log, err)
			return
		}
		d.Log.WarnContext(r.Context(), "CSV export cut", "export", name, "rows", n, "err", err)
		panic(http.ErrAbortHandler)
	}
}
