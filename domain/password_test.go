package domain

import "testing"

func TestPasswordRules(t *testing.T) {
	for pw, want := range map[string]string{"1234567": MsgPasswordLength, "12345678": "", "ééééééé": MsgPasswordLength, "éééééééé": ""} {
		if got := PasswordProblem(pw); got != want {
			t.Errorf("PasswordProblem(%q) = %q, want %q", pw, got, want)
		}
	}
	for pw, want := range map[string]string{
		"Short!1":      MsgNewPasswordLength,
		"lowercase!!!": MsgNewPasswordUpper,
		"Uppercase123": MsgNewPasswordSymbol,
		"Uppercase12!": "",
	} {
		if got := NewPasswordProblem(pw); got != want {
			t.Errorf("NewPasswordProblem(%q) = %q, want %q", pw, got, want)
		}
	}
}
