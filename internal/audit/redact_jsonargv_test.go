package audit

import (
	"strings"
	"testing"
)

// TestRedactArgsArgvArrays: a JSON array of strings in a call's arguments
// read as the argv list it may be: the item after a secret option, by the
// program its first item names or by the option's name, and an attached
// value by that program's rules; other arrays stay.
func TestRedactArgsArgvArrays(t *testing.T) {
	for _, tt := range []spelling{
		{`{"argv":["sshpass","-p","S3cr3tZ","ssh","h"]}`, []string{"S3cr3tZ"}, []string{`"ssh","h"`}},
		{`{"args":["--password","S3cr3tZ"]}`, []string{"S3cr3tZ"}, []string{`"--password"`}},
		{`{"cmd":["/usr/bin/mysql","-uroot","-pS3cr3tZ","db"]}`, []string{"S3cr3tZ"}, []string{`"-uroot"`, `"db"`}},
		{`{"cmd":["curl","-u","bob:S3cr3tZ","https://h"]}`, []string{"S3cr3tZ"}, []string{`"https://h"`}},
		{`{"x":{"argv":["redis-cli","-a","S3cr3tZ","ping"]}}`, []string{"S3cr3tZ"}, []string{`"ping"`}},
		{`{"args":["tool","--api-token","S3cr3tZ","run"]}`, []string{"S3cr3tZ"}, []string{`"run"`}},
		{`{"args":["ldapsearch","-x","-w","S3cr3tZ","-b","dc=x"]}`, []string{"S3cr3tZ"}, []string{`"-b","dc=x"`}},
		// Kept: other options' values and plain lists.
		{`{"argv":["ssh","-p","2222","h"]}`, nil, []string{`["ssh","-p","2222","h"]`}},
		{`{"hosts":["a","b"],"tags":["-p","x"]}`, nil, []string{`["a","b"]`}},
		{`{"args":["--no-password","keep"]}`, nil, []string{`"keep"`}},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got := string(RedactArgs([]byte(tt.in), 0))
			for _, s := range tt.secret {
				if strings.Contains(got, s) {
					t.Errorf("RedactArgs(%s) = %s: still contains %q", tt.in, got, s)
				}
			}
			for _, k := range tt.keep {
				if !strings.Contains(got, k) {
					t.Errorf("RedactArgs(%s) = %s: lost %q", tt.in, got, k)
				}
			}
		})
	}
}
