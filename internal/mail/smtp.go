package mail

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTP sends mail through an SMTP server.
type SMTP struct {
	client *gomail.Client
	from   string
	log    *slog.Logger
}

// smtpSettings is what an SMTP_URL says.
type smtpSettings struct {
	host, user, password string
	port                 int
	implicitTLS          bool                // smtps: TLS from the first byte
	policy               gomail.TLSPolicy    // smtp: STARTTLS required, tried, or off
	auth                 gomail.SMTPAuthType // with a user: the best mechanism the server offers
}

// parseSMTPURL reads
//
//	smtp://[user[:password]@]host[:port][?tls=mandatory|opportunistic|none]
//	smtps://[user[:password]@]host[:port]
//
// smtp uses STARTTLS (port 587 by default), required unless tls says
// otherwise; smtps is TLS from the start (port 465 by default).
func parseSMTPURL(raw string) (smtpSettings, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return smtpSettings{}, errors.New("SMTP_URL is not a URL")
	}
	s := smtpSettings{host: u.Hostname(), policy: gomail.TLSMandatory, auth: gomail.SMTPAuthNoAuth}
	switch u.Scheme {
	case "smtp":
		s.port = gomail.DefaultPortTLS
		switch tls := u.Query().Get("tls"); tls {
		case "", "mandatory":
		case "opportunistic":
			s.policy = gomail.TLSOpportunistic
		case "none":
			s.policy = gomail.NoTLS
		default:
			return smtpSettings{}, fmt.Errorf("SMTP_URL: tls must be mandatory, opportunistic or none, not %q", tls)
		}
	case "smtps":
		s.port, s.implicitTLS = gomail.DefaultPortSSL, true
	default:
		return smtpSettings{}, fmt.Errorf("SMTP_URL must start with smtp:// or smtps://, not %q", u.Scheme+"://")
	}
	if s.host == "" {
		return smtpSettings{}, errors.New("SMTP_URL needs a host")
	}
	if p := u.Port(); p != "" {
		if s.port, err = strconv.Atoi(p); err != nil || s.port < 1 || s.port > 65535 {
			return smtpSettings{}, fmt.Errorf("SMTP_URL: bad port %q", p)
		}
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.password, _ = u.User.Password()
		s.auth = gomail.SMTPAuthAutoDiscover
	}
	return s, nil
}

// DefaultTimeout bounds one SMTP conversation when SMTP_TIMEOUT is unset.
const DefaultTimeout = 10 * time.Second

// NewSMTP returns a mailer for smtpURL (see parseSMTPURL) sending as from;
// timeout bounds each network step of a send (connect, every reply), so a
// silent server fails a send within it.
func NewSMTP(smtpURL, from string, timeout time.Duration, log *slog.Logger) (*SMTP, error) {
	s, err := parseSMTPURL(smtpURL)
	if err != nil {
		return nil, err
	}
	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(cmp.Or(timeout, DefaultTimeout)), gomail.WithSMTPAuth(s.auth)}
	if s.implicitTLS {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(s.policy))
	}
	if s.user != "" {
		opts = append(opts, gomail.WithUsername(s.user), gomail.WithPassword(s.password))
	}
	c, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return nil, fmt.Errorf("SMTP client: %w", err)
	}
	return &SMTP{client: c, from: from, log: log}, nil
}

// Send implements Mailer.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail from %q: %w", s.from, err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail recipient: %w", err)
	}
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return fmt.Errorf("mail reply-to: %w", err)
		}
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if err := s.client.DialAndSendWithContext(ctx, msg); err != nil {
		var se *gomail.SendError
		if errors.As(err, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600 {
			return &PermanentError{Err: fmt.Errorf("send mail: %w", err)}
		}
		return fmt.Errorf("send mail: %w", err)
	}
	s.log.InfoContext(ctx, "mail sent", "to", m.To, "subject", m.Subject)
	return nil
}
