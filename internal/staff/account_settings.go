package staff

import (
	"time"

	"github.com/a2e-automation/app/domain"
)

// SettingsView is what the seller set to guard their credits (issue 33):
// spend limits, balance alerts and auto-recharge as they stand, and every
// change of them, newest last, from the account's stream.
type SettingsView struct {
	SpendLimits  SpendLimitsView      `json:"spendLimits"`
	Alerts       domain.AlertSettings `json:"alerts"`
	AutoRecharge AutoRechargeView     `json:"autoRecharge"`
	History      []SettingChange      `json:"history"`
}

// SpendLimitsView is the caps; null is no cap.
type SpendLimitsView struct {
	DailyCredits   *int64 `json:"dailyCredits"`
	MonthlyCredits *int64 `json:"monthlyCredits"`
}

// AutoRechargeView is auto-recharge as staff see it.
type AutoRechargeView struct {
	Enabled           bool         `json:"enabled"`
	ThresholdCredits  int64        `json:"thresholdCredits"`
	PackCredits       int64        `json:"packCredits"`
	PackAmountCents   int64        `json:"packAmountCents"`
	MonthlyLimitCents int64        `json:"monthlyLimitCents"`
	PaymentMethod     *domain.Card `json:"paymentMethod"`
	DisabledReason    string       `json:"disabledReason,omitempty"`
	InFlight          string       `json:"rechargeInFlight,omitempty"`
	RechargedCents    int64        `json:"rechargedThisMonthCents"`
}

// SettingChange is one event that changed or acted on the settings, in the
// history's words (Describe).
type SettingChange struct {
	At          time.Time `json:"at"`
	Type        string    `json:"type"`
	Description string    `json:"description"`
}

// settingsOf is a's settings at now, with their changes among history.
func settingsOf(a *domain.Account, history []domain.Recorded, now time.Time) SettingsView {
	l := a.SpendLimits(now)
	r := a.AutoRecharge(now)
	v := SettingsView{
		SpendLimits: SpendLimitsView{DailyCredits: l.Daily, MonthlyCredits: l.Monthly},
		Alerts:      a.Alerts(),
		AutoRecharge: AutoRechargeView{Enabled: r.Enabled, ThresholdCredits: r.ThresholdCredits, PackCredits: r.PackCredits,
			PackAmountCents: r.PackAmountCents, MonthlyLimitCents: r.MonthlyLimitCents, PaymentMethod: r.Card,
			DisabledReason: r.DisabledReason, InFlight: r.InFlight, RechargedCents: r.SpentThisMonth},
		History: []SettingChange{},
	}
	for _, h := range history {
		switch h.Event.(type) {
		case domain.SpendLimitsSet, domain.SpendLimitReached, domain.AlertSettingsChanged, domain.AutoRechargeSet, domain.PaymentMethodSaved,
			domain.PaymentMethodRemoved, domain.RechargeRequested, domain.RechargeFailed, domain.RechargeNeedsAction,
			domain.AutoRechargeDisabled:
			summary, _ := Describe(h.Event)
			v.History = append(v.History, SettingChange{At: h.At, Type: h.Event.EventType(), Description: summary})
		}
	}
	return v
}
