package projections

import (
	"reflect"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// The folds are pure: rows in, events in, rows out, with no database. These
// cases pin the rules the batches rely on; the equality tests against the
// real tables (projections_test) cover the rest.
func TestFoldsArePure(t *testing.T) {
	const id = "3f0c8a62-8b1e-4c53-9d2a-0c1f7d3b9a11"
	at := func(min int) eventstore.Record {
		return eventstore.Record{StreamID: domain.StreamID(id), RecordedAt: time.Date(2026, 3, 1, 12, min, 0, 0, time.UTC)}
	}
	ends := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)

	t.Run("profile", func(t *testing.T) {
		var row Profile
		exists := false
		for i, ev := range []domain.Event{
			domain.CreditsGranted{Amount: 9},         // before the row exists: nothing
			domain.AccountRegistered{Email: "a@x.y"}, // makes it
			domain.AccountRegistered{Email: "b@x.y"}, // changes nothing
			domain.CreditsGranted{Amount: 10},
			domain.CreditsSpent{Amount: 3},
			domain.ListingRequested{},
			domain.SubscriptionCancelled{EndsAt: ends},
			domain.CreditsRevoked{Amount: 2, Debt: 4},
			domain.DebtRepaid{Amount: 1},
			domain.DisputeOpened{},
		} {
			next, changed, err := foldProfile(row, exists, id, at(i), ev)
			if err != nil {
				t.Fatal(err)
			}
			if changed {
				row, exists = next, true
			}
		}
		spent := at(4).RecordedAt
		want := Profile{AccountID: id, Email: "a@x.y", SubscriptionStatus: "cancelling", SubscriptionEndsAt: &ends,
			CreditsAvailable: 10 - 3 - 2 - 1, CreditsUsed: 3, ListingsCreated: 1, CreditDebt: 3, OpenDisputes: 1,
			RegisteredAt: at(1).RecordedAt, UpdatedAt: at(9).RecordedAt, LastSpendAt: &spent}
		if !reflect.DeepEqual(row, want) {
			t.Fatalf("folded profile\n got %+v\nwant %+v", row, want)
		}
	})

	t.Run("usage", func(t *testing.T) {
		var sum usageRow
		for _, ev := range []domain.Event{domain.CreditsSpent{Amount: 2}, domain.ListingRequested{}, domain.VeroCheckPerformed{}, domain.CreditsGranted{Amount: 5}} {
			add, err := usageOf(ev)
			if err != nil {
				t.Fatal(err)
			}
			sum = sum.plus(add)
		}
		if sum != (usageRow{credits: 2, listings: 1, vero: 1}) {
			t.Fatalf("usage = %+v", sum)
		}
	})

	t.Run("transaction", func(t *testing.T) {
		var row transactionRow
		exists := false
		for i, ev := range []domain.Event{
			domain.DisputeOpened{PaymentID: "pi_1"}, // no row yet: nothing
			domain.PaymentRecorded{PaymentID: "pi_1", Description: "100 credits", AmountCents: 999, Status: domain.PaymentPending, InvoiceURL: "https://i/1"},
			domain.PaymentRecorded{PaymentID: "pi_1", Description: "100 credits", AmountCents: 999, Status: domain.PaymentPaid}, // keeps the invoice
			domain.DisputeOpened{PaymentID: "pi_1"},
		} {
			next, changed, err := foldTransaction(row, exists, at(i), ev)
			if err != nil {
				t.Fatal(err)
			}
			if changed {
				row, exists = next, true
			}
		}
		url := "https://i/1"
		want := transactionRow{paymentID: "pi_1", accountID: id, description: "100 credits", status: domain.PaymentDisputed,
			date: at(1).RecordedAt, amountCents: 999, invoiceURL: &url}
		if !reflect.DeepEqual(row, want) {
			t.Fatalf("folded transaction\n got %+v\nwant %+v", row, want)
		}
	})
}
