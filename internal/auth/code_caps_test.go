package auth

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
)

// Issue 25, item 4: one code a minute is not enough of a bound (1,440
// mails and 7,200 guesses a day); codes, and so their mails, are capped at
// CodesPerHour an hour and CodesPerDay a day per account.
func TestVerificationCodesCappedPerHourAndDay(t *testing.T) {
	f := newFixture(t)
	t0 := time.Now().UTC().Truncate(time.Second)
	at := t0
	for i := range CodesPerHour {
		if _, err := f.issue(t, at); err != nil {
			t.Fatalf("code %d at +%v: %v", i+1, at.Sub(t0), err)
		}
		at = at.Add(ResendInterval)
	}
	// The sixth in the hour is refused until the first leaves the hour.
	_, err := f.issue(t, at)
	var soon *TooSoonError
	if !errors.As(err, &soon) || soon.RetryAfter != t0.Add(time.Hour).Sub(at) {
		t.Fatalf("code %d within the hour = %v", CodesPerHour+1, err)
	}
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.CodeRateLimited || !strings.Contains(de.Message, "Too many codes requested. Please wait 55 minutes") {
		t.Fatalf("refusal = %#v", de)
	}
	at = t0.Add(time.Hour + time.Second)
	for i := CodesPerHour; i < CodesPerDay; i++ {
		if _, err := f.issue(t, at); err != nil {
			t.Fatalf("code %d at +%v: %v", i+1, at.Sub(t0), err)
		}
		at = at.Add(13 * time.Minute) // under 5 an hour
	}
	// The day's cap: refused until the first code is a day old.
	_, err = f.issue(t, at.Add(2*time.Hour))
	if !errors.As(err, &soon) || soon.RetryAfter != t0.Add(24*time.Hour).Sub(at.Add(2*time.Hour)) {
		t.Fatalf("code %d within the day = %v", CodesPerDay+1, err)
	}
	if !errors.As(err, &de) || !strings.Contains(de.Message, "hours before requesting a new code") {
		t.Fatalf("refusal = %#v", de)
	}
	var mails int
	if err := f.pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_outbox WHERE kind = 'verification'`).Scan(&mails); err != nil || mails != CodesPerDay {
		t.Fatalf("%d verification mails queued (%v), want %d", mails, err, CodesPerDay)
	}
	if _, err := f.issue(t, t0.Add(24*time.Hour+time.Second)); err != nil {
		t.Fatalf("a day after the first code: %v", err)
	}
}

func TestNextCodeAfter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := nextCodeAfter(t0, []time.Time{t0}, t0.Add(10*time.Second)); !got.Equal(t0.Add(ResendInterval)) {
		t.Fatalf("after one code = %v", got)
	}
}

// Reset mails too are capped per day, beside the minute and the hour.
func TestResetMailsCappedPerDay(t *testing.T) {
	r := newResetRig(t)
	t0 := r.now
	for range 24 { // one request every hour and a bit for a day
		r.request(t, "seller@example.com", 1)
		r.now = r.now.Add(61 * time.Minute)
	}
	if n := r.mails.Load(); n != ResetMailsPerDay {
		t.Fatalf("a day of hourly requests sent %d mails, want %d", n, ResetMailsPerDay)
	}
	r.now = t0.Add(24*time.Hour + time.Minute) // the first mail left the day
	r.request(t, "seller@example.com", 1)
	if n := r.mails.Load(); n != ResetMailsPerDay+1 {
		t.Fatalf("a day after the first mail: %d mails", n)
	}
}
