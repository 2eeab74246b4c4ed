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

// Issue 25, item 6: the spec's length rule stands, and a chosen password
// is also refused when it is common, trivially repeated or the email.
func TestGuessablePasswords(t *testing.T) {
	if n := len(commonPasswords()); n != 10_000 {
		t.Fatalf("%d common passwords, want 10,000", n)
	}
	for _, c := range []struct{ pw, email, want string }{
		{"password", "jane@example.com", MsgPasswordCommon},
		{"PassWord", "jane@example.com", MsgPasswordCommon},
		{"12345678", "", MsgPasswordCommon},
		{"qwertyuiop", "", MsgPasswordCommon},
		{"password1", "", MsgPasswordCommon},
		{"aaaaaaaa", "", MsgPasswordCommon},
		{"abababab", "", MsgPasswordCommon},
		{"Aaaaaaaaa!", "", MsgPasswordCommon},
		{"jane.doe@example.com", "jane.doe@example.com", MsgPasswordIsEmail},
		{"JANE.DOE@EXAMPLE.COM!", "jane.doe@example.com", MsgPasswordIsEmail},
		{"correct-horse-battery", "jane@example.com", ""},
		{"Correct-Horse-42!", "", ""},
		{"jane.doe@example.com", "", ""}, // unknown email: only the list and the repeats
	} {
		if got := GuessablePasswordProblem(c.pw, c.email); got != c.want {
			t.Errorf("GuessablePasswordProblem(%q, %q) = %q, want %q", c.pw, c.email, got, c.want)
		}
	}
}
