package audit

import (
	"fmt"
	"strings"
	"testing"
)

// checkSubtests is checkDetours with one subtest a case, so a rule's
// revert reports how many spellings it loses.
func checkSubtests(t *testing.T, pw string, cases []detourCase) {
	t.Helper()
	for n, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.class, n), func(t *testing.T) {
			got := Redact(c.in)
			if strings.Contains(got, pw) {
				t.Errorf("secret kept:\n in: %.200s\nout: %.200s", c.in, got)
			}
			for _, k := range c.keep {
				if !strings.Contains(got, k) {
					t.Errorf("%.60q lost:\n in: %.200s\nout: %.200s", k, c.in, got)
				}
			}
		})
	}
}

// checkLocalAndSSH runs checkSubtests on each form with %s replaced by
// pw, as typed and as the remote command of an ssh call.
func checkLocalAndSSH(t *testing.T, pw string, forms []string) {
	t.Helper()
	var cases []detourCase
	for _, f := range forms {
		in := strings.Replace(f, "%s", pw, 1)
		cases = append(cases, detourCase{"local", in, nil}, detourCase{"ssh", `ssh h "` + escapeDouble(in) + `"`, []string{"ssh h"}})
	}
	checkSubtests(t, pw, cases)
}
