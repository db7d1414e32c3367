package audit

import (
	"fmt"
	"strings"
	"testing"
)

// TestRedactLongQuotedSeparators: a ';', '|' or '&' in a quoted string
// fed to a reader does not end the command however far the string's
// close lies (once the look for it stopped at 4 KiB, and the separator
// of a long printf ended the command, leaving the login line it fed to
// chpasswd in the clear).
func TestRedactLongQuotedSeparators(t *testing.T) {
	type tc struct {
		in           string
		secret, keep []string
	}
	var tests []tc
	for _, n := range []int{4100, 20000, 200000} {
		pad := strings.Repeat("lorem ipsum ", n/12)
		for _, sep := range []string{";", "|", "&", "&&", "||"} {
			tests = append(tests,
				tc{"printf 'x" + sep + " y\\nbob:S3cr3tZ\\n" + pad + "' | chpasswd", []string{"S3cr3tZ"}, []string{"| chpasswd"}},
				tc{"printf \"x" + sep + " y\\nbob:S3cr3tZ\\n" + pad + "\" | chpasswd", []string{"S3cr3tZ"}, []string{"| chpasswd"}},
				tc{"printf 'x" + sep + " y\\n" + pad + "\\nbob:S3cr3tZ\\n' | sudo chpasswd", []string{"S3cr3tZ"}, []string{"| sudo chpasswd"}},
				tc{"printf '%s\\n' 'a" + sep + " b " + pad + "' 'bob:S3cr3tZ' | chpasswd -c SHA512", []string{"S3cr3tZ"}, nil},
				tc{"smbclient //h/s -U bob -c 'cd x" + sep + " " + pad + " ls' <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"smbclient //h/s -U bob -c"}},
				tc{"smbclient //h/s -U bob -c \"cd x" + sep + " " + pad + " ls\" <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"smbclient //h/s -U bob -c"}},
				// Look-alikes: a long string fed to no reader keeps its
				// text, and a lone apostrophe still opens no string.
				tc{"printf 'a" + sep + " b\\n" + pad + "' | sort", nil, []string{"a" + sep + " b", pad}},
				tc{"echo \"done" + sep + " " + pad + "\" >> /var/log/x", nil, []string{"done" + sep + " ", pad}},
				tc{"echo it's done" + sep + " echo bob:S3cr3tZ | chpasswd; echo '" + pad + "'", []string{"S3cr3tZ"}, []string{pad}},
			)
		}
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := Redact(tt.in)
			for _, s := range tt.secret {
				if strings.Contains(got, s) {
					t.Errorf("Redact(%.80q…) still contains %q", tt.in, s)
				}
			}
			for _, k := range tt.keep {
				if !strings.Contains(got, k) {
					t.Errorf("Redact(%.80q…) lost %.40q", tt.in, k)
				}
			}
		})
	}
}
