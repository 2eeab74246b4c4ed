package main

import (
	"bytes"
	"strings"
	"testing"
)

// A run of two packages as go test -json writes it: the output is plain go
// test's (a failed test's lines, not a passing one's), then the timings.
func TestSummary(t *testing.T) {
	in := `{"Action":"start","Package":"github.com/a2e-automation/app/domain"}
{"Action":"run","Package":"github.com/a2e-automation/app/domain","Test":"TestFast"}
{"Action":"output","Package":"github.com/a2e-automation/app/domain","Test":"TestFast","Output":"=== RUN   TestFast\n"}
{"Action":"pass","Package":"github.com/a2e-automation/app/domain","Test":"TestFast","Elapsed":0.2}
{"Action":"output","Package":"github.com/a2e-automation/app/domain","Output":"PASS\n"}
{"Action":"output","Package":"github.com/a2e-automation/app/domain","Output":"ok  \tgithub.com/a2e-automation/app/domain\t1.5s\n"}
{"Action":"pass","Package":"github.com/a2e-automation/app/domain","Elapsed":1.5}
{"Action":"run","Package":"github.com/a2e-automation/app/cmd/api","Test":"TestSlow"}
{"Action":"output","Package":"github.com/a2e-automation/app/cmd/api","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}
{"Action":"output","Package":"github.com/a2e-automation/app/cmd/api","Test":"TestSlow/sub","Output":"    x_test.go:9: sub went wrong\n"}
{"Action":"fail","Package":"github.com/a2e-automation/app/cmd/api","Test":"TestSlow/sub","Elapsed":3}
{"Action":"output","Package":"github.com/a2e-automation/app/cmd/api","Test":"TestSlow","Output":"    x_test.go:12: went wrong\n"}
{"Action":"fail","Package":"github.com/a2e-automation/app/cmd/api","Test":"TestSlow","Elapsed":12.5}
{"Action":"output","Package":"github.com/a2e-automation/app/cmd/api","Output":"FAIL\tgithub.com/a2e-automation/app/cmd/api\t14.0s\n"}
{"Action":"fail","Package":"github.com/a2e-automation/app/cmd/api","Elapsed":14}
not json
`
	var out bytes.Buffer
	s := newSummary(&out)
	for _, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
		s.line([]byte(l))
	}
	s.report(1)
	want := "ok  \tgithub.com/a2e-automation/app/domain\t1.5s\n" +
		"    x_test.go:9: sub went wrong\n" +
		"=== RUN   TestSlow\n    x_test.go:12: went wrong\n" +
		"FAIL\tgithub.com/a2e-automation/app/cmd/api\t14.0s\n" +
		"not json\n" +
		"slowest Go packages:\n     14.0 s  cmd/api\n" +
		"slowest Go tests:\n     12.5 s  cmd/api TestSlow\n"
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
