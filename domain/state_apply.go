package domain

import "time"

// noteEnded remembers when a subscription that was not being cancelled
// ended (endedBefore); the subscription's own apply sees the event too.
func (s *state) noteEnded(e Event, at time.Time) {
	ended, ok := e.(SubscriptionEnded)
	if !ok || ended.SubscriptionID == "" || s.Subscription.cancelling(ended.SubscriptionID) {
		return
	}
	if s.EndedSubscriptions == nil {
		s.EndedSubscriptions = make(map[string]time.Time)
	}
	if _, ok := s.EndedSubscriptions[ended.SubscriptionID]; !ok {
		s.EndedSubscriptions[ended.SubscriptionID] = at
	}
}

// applyIdentity applies the account's opening and its email's verification.
func (s *state) applyIdentity(e Event) bool {
	switch e := e.(type) {
	case AccountRegistered:
		s.ID, s.Email = e.AccountID, e.Email
		s.Subscription.Status = StatusInactive
	case EmailVerified:
		s.Verified = true
	default:
		return false
	}
	return true
}

// applyCredits applies what moves the balance: grants, spends, debits,
// expiries, revocations and the debt they leave.
func (s *state) applyCredits(e Event, at time.Time) bool {
	if spent, ok := SpendOf(e); ok {
		s.take(spent.Draws)
		return true
	}
	switch e := e.(type) {
	case CreditsGranted:
		if s.GrantIDs == nil {
			s.GrantIDs = make(map[string]bool)
		}
		s.GrantIDs[e.GrantID] = true
		g := Grant{ID: e.GrantID, Source: e.Source, Amount: e.Amount, Remaining: e.Amount, GrantedAt: at}
		if e.ExpiresAt != nil {
			g.ExpiresAt = timePtr(*e.ExpiresAt)
		}
		s.Grants = append(s.Grants, g)
	case CreditsDebited:
		s.take(e.Draws)
	case CreditsExpired:
		s.take([]Draw{{GrantID: e.GrantID, Amount: e.Amount}})
	case CreditsRevoked:
		s.take(e.Draws)
		s.Debt += e.Debt
		if p := s.Paid[e.PaymentID]; p != nil {
			p.Revoked += e.Share
		}
	case DebtRepaid:
		s.take(e.Draws)
		s.Debt -= e.Amount
	default:
		return false
	}
	return true
}

// applyPayment applies a payment's outcome and its refund.
func (s *state) applyPayment(e Event) bool {
	switch e := e.(type) {
	case PaymentRecorded:
		if s.Payments == nil {
			s.Payments = make(map[string][]string)
		}
		s.Payments[e.PaymentID] = append(s.Payments[e.PaymentID], e.Status)
		if e.Status == PaymentPaid || e.Status == PaymentNeedsReview {
			s.notePaid(e)
		}
	case PaymentRefunded:
		if p := s.Paid[e.PaymentID]; p != nil {
			p.RefundedCents, p.Status = e.AmountCents, e.Status
		}
	default:
		return false
	}
	return true
}

// notePaid keeps a paid (or held for review) payment for its refunds and
// disputes.
func (s *state) notePaid(e PaymentRecorded) {
	if s.Paid == nil {
		s.Paid = make(map[string]*paidPayment)
	}
	grant := e.GrantID
	if grant == "" && e.Kind == PaymentKindCredits {
		grant = "purchase:" + e.PaymentID // before PaymentRecorded named its grant
	}
	p := &paidPayment{Kind: e.Kind, AmountCents: e.AmountCents, Credits: e.Credits, GrantID: grant, Status: e.Status}
	if e.Status == PaymentNeedsReview {
		p.Credits, p.GrantID = 0, "" // it bought nothing: a refund takes nothing back
	}
	s.Paid[e.PaymentID] = p
}

// applyDispute applies a dispute's opening and closing.
func (s *state) applyDispute(e Event) bool {
	switch e := e.(type) {
	case DisputeOpened:
		if s.Disputes == nil {
			s.Disputes = make(map[string]string)
		}
		s.Disputes[e.DisputeID] = disputeOpen
		if s.DisputedPayments == nil {
			s.DisputedPayments = make(map[string]string)
		}
		s.DisputedPayments[e.DisputeID] = e.PaymentID
		if p := s.Paid[e.PaymentID]; p != nil {
			p.Status = PaymentDisputed
		}
	case DisputeClosed:
		if s.Disputes == nil {
			s.Disputes = make(map[string]string)
		}
		s.Disputes[e.DisputeID] = e.Outcome
		if p := s.Paid[e.PaymentID]; p != nil {
			p.Status = e.PaymentStatus
		}
	default:
		return false
	}
	return true
}
