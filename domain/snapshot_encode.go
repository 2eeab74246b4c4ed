package domain

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendSnapshot appends the account's snapshot as encoding/json writes
// snapshot{snapshotFormat, s}, byte for byte, without reflection: encoding
// the snapshot with encoding/json was 2.6–2.9 % of bin/api's CPU per spend
// (issue 36, seventh session), every spend writing one. It reports false
// for a state it does not write exactly as encoding/json would (a time out
// of JSON's range): Snapshot then takes encoding/json.
//
// Every field of state and of the types in it must be written here, in
// declaration order, with its tag's name and omitempty/omitzero:
// TestSnapshotEncoderMatchesEncodingJSON fills every field of every type
// under state, whatever is added later, and compares the bytes.
func appendSnapshot(b []byte, s *state) ([]byte, bool) {
	w := snapWriter{b: b, ok: true}
	w.raw(`{"format":`)
	w.int(snapshotFormat)
	w.raw(`,"state":{"id":`)
	w.str(s.ID)
	w.raw(`,"email":`)
	w.str(s.Email)
	w.raw(`,"verified":`)
	w.bool(s.Verified)
	w.raw(`,"apiKeyId":`)
	w.str(s.APIKeyID)
	w.raw(`,"apiKeyHash":`)
	w.str(s.APIKeyHash)
	if s.APIKeyPrefix != "" {
		w.raw(`,"apiKeyPrefix":`)
		w.str(s.APIKeyPrefix)
	}
	if len(s.Keys) > 0 {
		w.raw(`,"keys":[`)
		for i := range s.Keys {
			if i > 0 {
				w.raw(",")
			}
			w.apiKey(&s.Keys[i])
		}
		w.raw("]")
	}
	w.raw(`,"subscription":`)
	w.subscription(&s.Subscription)
	if len(s.Grants) > 0 {
		w.raw(`,"grants":[`)
		for i := range s.Grants {
			if i > 0 {
				w.raw(",")
			}
			w.grant(&s.Grants[i])
		}
		w.raw("]")
	}
	if len(s.GrantIDs) > 0 {
		w.raw(`,"grantIds":`)
		appendMap(&w, s.GrantIDs, (*snapWriter).bool)
	}
	if len(s.Payments) > 0 {
		w.raw(`,"payments":`)
		appendMap(&w, s.Payments, (*snapWriter).strs)
	}
	if len(s.Paid) > 0 {
		w.raw(`,"paid":`)
		appendMap(&w, s.Paid, (*snapWriter).paid)
	}
	if s.Debt != 0 {
		w.raw(`,"debt":`)
		w.int(s.Debt)
	}
	if len(s.Disputes) > 0 {
		w.raw(`,"disputes":`)
		appendMap(&w, s.Disputes, (*snapWriter).str)
	}
	if len(s.DisputedPayments) > 0 {
		w.raw(`,"disputedPayments":`)
		appendMap(&w, s.DisputedPayments, (*snapWriter).str)
	}
	if len(s.EndedSubscriptions) > 0 {
		w.raw(`,"endedSubscriptions":`)
		appendMap(&w, s.EndedSubscriptions, (*snapWriter).time)
	}
	w.raw(`,"limits":`)
	w.limits(&s.Limits)
	w.raw(`,"alerts":{"lowBalanceCredits":`)
	w.int64Ptr(s.Alerts.LowBalanceCredits)
	w.raw(`,"expiringReminderDays":`)
	if d := s.Alerts.ExpiringReminderDays; d != nil {
		w.int(int64(*d))
	} else {
		w.raw("null")
	}
	w.raw("}")
	if s.LowBalance {
		w.raw(`,"lowBalance":true`)
	}
	if len(s.Webhooks) > 0 {
		w.raw(`,"webhooks":`)
		appendMap(&w, s.Webhooks, (*snapWriter).bool)
	}
	w.raw(`,"recharge":`)
	w.recharge(&s.Recharge)
	w.raw("}}")
	return w.b, w.ok
}

// snapWriter appends JSON as encoding/json writes it; ok turns false at a
// value it would not write the same.
type snapWriter struct {
	b  []byte
	ok bool
}

func (w *snapWriter) raw(s string) { w.b = append(w.b, s...) }

func (w *snapWriter) int(n int64) { w.b = strconv.AppendInt(w.b, n, 10) }

func (w *snapWriter) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

func (w *snapWriter) int64Ptr(p *int64) {
	if p == nil {
		w.raw("null")
		return
	}
	w.int(*p)
}

// str writes s as encoding/json's Marshal does (HTML characters escaped):
// plain printable ASCII as it is, anything else through encoding/json.
func (w *snapWriter) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(s)
			if err != nil {
				w.ok = false
				return
			}
			w.b = append(w.b, q...)
			return
		}
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

func (w *snapWriter) strs(v []string) {
	if v == nil {
		w.raw("null")
		return
	}
	w.raw("[")
	for i, s := range v {
		if i > 0 {
			w.raw(",")
		}
		w.str(s)
	}
	w.raw("]")
}

// time writes t as Time.MarshalJSON does (RFC 3339 with nanoseconds), for
// the years and offsets it accepts; others are left to encoding/json.
func (w *snapWriter) time(t time.Time) {
	if y := t.Year(); y < 0 || y > 9999 {
		w.ok = false
		return
	}
	if _, off := t.Zone(); off%60 != 0 || off <= -24*3600 || off >= 24*3600 {
		w.ok = false
		return
	}
	w.b = append(w.b, '"')
	w.b = t.AppendFormat(w.b, time.RFC3339Nano)
	w.b = append(w.b, '"')
}

func (w *snapWriter) timePtr(t *time.Time) {
	if t == nil {
		w.raw("null")
		return
	}
	w.time(*t)
}

func (w *snapWriter) apiKey(k *apiKey) {
	w.raw(`{"id":`)
	w.str(k.ID)
	w.raw(`,"name":`)
	w.str(k.Name)
	w.raw(`,"prefix":`)
	w.str(k.Prefix)
	w.raw(`,"mode":`)
	w.str(k.Mode)
	w.raw(`,"hash":`)
	w.str(k.Hash)
	w.raw(`,"createdAt":`)
	w.time(k.CreatedAt)
	if k.ExpiresAt != nil {
		w.raw(`,"expiresAt":`)
		w.time(*k.ExpiresAt)
	}
	if k.RetiresAt != nil {
		w.raw(`,"retiresAt":`)
		w.time(*k.RetiresAt)
	}
	w.raw("}")
}

func (w *snapWriter) subscription(s *subscription) {
	w.raw("{")
	if s.ID != "" {
		w.raw(`"id":`)
		w.str(s.ID)
		w.raw(",")
	}
	w.raw(`"status":`)
	w.str(s.Status)
	if s.PeriodEnd != nil {
		w.raw(`,"periodEnd":`)
		w.time(*s.PeriodEnd)
	}
	if s.EndsAt != nil {
		w.raw(`,"endsAt":`)
		w.time(*s.EndsAt)
	}
	if s.Ended {
		w.raw(`,"ended":true`)
	}
	if s.ChangedAt != nil {
		w.raw(`,"changedAt":`)
		w.time(*s.ChangedAt)
	}
	w.raw("}")
}

func (w *snapWriter) grant(g *Grant) {
	w.raw(`{"id":`)
	w.str(g.ID)
	w.raw(`,"source":`)
	w.str(g.Source)
	w.raw(`,"amount":`)
	w.int(g.Amount)
	w.raw(`,"remaining":`)
	w.int(g.Remaining)
	if g.ExpiresAt != nil {
		w.raw(`,"expiresAt":`)
		w.time(*g.ExpiresAt)
	}
	w.raw(`,"grantedAt":`)
	w.time(g.GrantedAt)
	if g.Reminded {
		w.raw(`,"reminded":true`)
	}
	w.raw("}")
}

func (w *snapWriter) paid(p *paidPayment) {
	if p == nil {
		w.raw("null")
		return
	}
	w.raw(`{"kind":`)
	w.str(p.Kind)
	w.raw(`,"amountCents":`)
	w.int(p.AmountCents)
	w.raw(`,"credits":`)
	w.int(p.Credits)
	if p.GrantID != "" {
		w.raw(`,"grantId":`)
		w.str(p.GrantID)
	}
	if p.RefundedCents != 0 {
		w.raw(`,"refundedCents":`)
		w.int(p.RefundedCents)
	}
	if p.Revoked != 0 {
		w.raw(`,"revoked":`)
		w.int(p.Revoked)
	}
	w.raw(`,"status":`)
	w.str(p.Status)
	w.raw("}")
}

// field writes a field's name, after a comma unless it is the object's
// first; *n counts the fields written.
func (w *snapWriter) field(n *int, name string) {
	if *n > 0 {
		w.raw(",")
	}
	*n++
	w.raw(name)
}

func (w *snapWriter) limits(l *spendLimits) {
	w.raw("{")
	n := 0
	if l.Daily != nil {
		w.field(&n, `"daily":`)
		w.int(*l.Daily)
	}
	if l.Monthly != nil {
		w.field(&n, `"monthly":`)
		w.int(*l.Monthly)
	}
	if !l.DayStart.IsZero() {
		w.field(&n, `"dayStart":`)
		w.time(l.DayStart)
	}
	if l.DaySpent != 0 {
		w.field(&n, `"daySpent":`)
		w.int(l.DaySpent)
	}
	if !l.MonthStart.IsZero() {
		w.field(&n, `"monthStart":`)
		w.time(l.MonthStart)
	}
	if l.MonthSpent != 0 {
		w.field(&n, `"monthSpent":`)
		w.int(l.MonthSpent)
	}
	if !l.CycleStart.IsZero() {
		w.field(&n, `"cycleStart":`)
		w.time(l.CycleStart)
	}
	if !l.CycleEnd.IsZero() {
		w.field(&n, `"cycleEnd":`)
		w.time(l.CycleEnd)
	}
	if !l.DayNoted.IsZero() {
		w.field(&n, `"dayNoted":`)
		w.time(l.DayNoted)
	}
	if !l.MonthNoted.IsZero() {
		w.field(&n, `"monthNoted":`)
		w.time(l.MonthNoted)
	}
	w.raw("}")
}

func (w *snapWriter) recharge(r *recharge) {
	st := &r.Settings
	w.raw(`{"settings":{"enabled":`)
	w.bool(st.Enabled)
	w.raw(`,"thresholdCredits":`)
	w.int(st.ThresholdCredits)
	w.raw(`,"packCredits":`)
	w.int(st.PackCredits)
	w.raw(`,"packAmountCents":`)
	w.int(st.PackAmountCents)
	w.raw(`,"monthlyLimitCents":`)
	w.int(st.MonthlyLimitCents)
	w.raw("}")
	if r.Card != nil {
		w.raw(`,"card":{"brand":`)
		w.str(r.Card.Brand)
		w.raw(`,"last4":`)
		w.str(r.Card.Last4)
		w.raw("}")
	}
	if r.Seq != 0 {
		w.raw(`,"seq":`)
		w.int(r.Seq)
	}
	if r.InFlight != "" {
		w.raw(`,"inFlight":`)
		w.str(r.InFlight)
	}
	if r.InFlightCents != 0 {
		w.raw(`,"inFlightCents":`)
		w.int(r.InFlightCents)
	}
	if r.AwaitingAction != "" {
		w.raw(`,"awaitingAction":`)
		w.str(r.AwaitingAction)
	}
	if r.AwaitingPayment != "" {
		w.raw(`,"awaitingPayment":`)
		w.str(r.AwaitingPayment)
	}
	if r.Failures != 0 {
		w.raw(`,"failures":`)
		w.int(int64(r.Failures))
	}
	if r.DisabledReason != "" {
		w.raw(`,"disabledReason":`)
		w.str(r.DisabledReason)
	}
	if !r.MonthStart.IsZero() {
		w.raw(`,"monthStart":`)
		w.time(r.MonthStart)
	}
	if r.MonthCents != 0 {
		w.raw(`,"monthCents":`)
		w.int(r.MonthCents)
	}
	w.raw("}")
}

// appendMap writes m as encoding/json does: its keys sorted, each value by
// value.
func appendMap[V any](w *snapWriter, m map[string]V, value func(*snapWriter, V)) {
	var arr [16]string
	keys := arr[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.raw("{")
	for i, k := range keys {
		if i > 0 {
			w.raw(",")
		}
		w.str(k)
		w.raw(":")
		value(w, m[k])
	}
	w.raw("}")
}
