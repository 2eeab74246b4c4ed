package main

import (
	"net/url"
	"strings"
	"testing"
)

// Issue 31, item 12: an id in another spelling than the canonical
// 8-4-4-4-12 (urn:uuid:…, {…}, without hyphens) is answered 404 on every
// staff route with an {id} and 400 as the audit's accountId filter, never
// 500.
func TestStaffBadIDsAreNotFound(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	id := s.customer.ID
	for _, bad := range []string{"urn:uuid:" + id, "{" + id + "}", strings.ReplaceAll(id, "-", ""), "not-an-id", id + "0"} {
		p := url.PathEscape(bad)
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/api/staff/accounts/" + p, nil},
			{"GET", "/api/staff/accounts/" + p + "/history", nil},
			{"GET", "/api/staff/accounts/" + p + "/balance", nil},
			{"GET", "/api/staff/accounts/" + p + "/comparison", nil},
			{"POST", "/api/staff/accounts/" + p + "/adjustments", map[string]any{"credits": 1, "reason": "Checking ids"}},
			{"POST", "/api/staff/accounts/" + p + "/refunds", map[string]any{"paymentId": "pi_x", "reason": "Checking ids"}},
			{"POST", "/api/staff/accounts/" + p + "/subscription/cancel", map[string]any{"atPeriodEnd": true, "reason": "Checking ids"}},
			{"GET", "/api/staff/support-requests/" + p, nil},
			{"POST", "/api/staff/support-requests/" + p + "/replies", map[string]any{"message": "Hello"}},
			{"POST", "/api/staff/support-requests/" + p + "/status", map[string]any{"status": "closed"}},
		} {
			r := s.do(request{method: c.method, path: c.path, cookie: s.staff.Cookie, body: c.body,
				header: map[string]string{"Idempotency-Key": "ids-" + bad}})
			if r.status != 404 {
				t.Errorf("%s %s = %d %s", c.method, c.path, r.status, r.body)
			}
		}
		if _, r := s.audit("accountId=" + url.QueryEscape(bad)); r.status != 400 || !strings.Contains(r.message(t), "accountId") {
			t.Errorf("audit of accountId %q = %d %s", bad, r.status, r.body)
		}
		if _, r := s.audit("actor=" + url.QueryEscape(bad)); r.status != 200 {
			t.Errorf("audit of actor %q = %d %s", bad, r.status, r.body)
		}
	}
}
