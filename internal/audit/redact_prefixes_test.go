package audit

import (
	"strings"
	"testing"
)

// checkCases runs each spelling as its own subtest, so a reverted rule
// shows how many spellings it alone kept out of the log.
func checkCases(t *testing.T, tests []spelling) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Helper()
			checkSpellings(t, []spelling{tt})
		})
	}
}

// TestRedactMoreTokenFormats: providers' tokens recognised by their
// prefix wherever they stand (an echo, a header, a JSON value, a config
// line), with the text around them kept.
func TestRedactMoreTokenFormats(t *testing.T) {
	tokens := []string{
		"AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGP",
		"glc_eyJvIjoiMTIzNCIsIm4iOiJzdGFjay0xIiwiayI6IkFiQ2QxMjM0In0=",
		"glcbt-64_abcdefghij0123456789", "glimt-abcdefghij0123456789xyz", "glagent-abcdefghij0123456789xyz",
		"gloas-abcdefghij0123456789abcdefghij", "glsoat-abcdefghij0123456789", "glffct-abcdefghij0123456789",
		"gsk_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP",
		"GOCSPX-abcdefghijKLMNOPQRST0123456",
		"xkeysib-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef-AbCdEfGh12345678",
		"xai-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123",
		"sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"sk_0123456789abcdef0123456789abcdef0123456789abcdef",
		"sk.eyJ1IjoibWFwYm94IiwiYSI6ImNrMTIzNDU2Nzg5MCJ9.abcdefghijklmnopqrstuv",
		"sq0atp-abcdefghijklmnopqrstuv", "sq0csp-abcdefghijklmnopqrstuvwxyz0123456789ABCD",
		"sntrys_eyJpYXQiOjE2ODQwMDAwMDAsInVybCI6Imh0dHBzOi8vc2VudHJ5LmlvIn0=_abcdefghijklmnopqrstuvwxyz01234",
		"sntryu_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"sbp_0123456789abcdef0123456789abcdef01234567",
		"secret_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
		"lsv2_pt_0123456789abcdef0123456789abcdef_0123456789",
		"fo1_abcdefghijklmnopqrstuvwxyz0123456789ABCDE",
		"ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIsInVzZXJBdXRoIjp7fX0",
		"r8_abcdefghijklmnopqrstuvwxyz0123456789A", "rnd_abcdefghijklmnopqrstuvwxyz01",
		"nfp_abcdefghijklmnopqrstuvwxyz0123456789", "ntn_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG",
		"hvr.AbCdEfGhIjKlMnOpQrStUvWxYz",
		"pat-na1-01234567-89ab-cdef-0123-456789abcdef", "pat-eu1-01234567-89ab-cdef-0123-456789abcdef",
		"pplx-0123456789abcdef0123456789abcdef0123456789abcdef",
		"pnu_abcdefghijklmnopqrstuvwxyz0123456789", "phx_abcdefghijklmnopqrstuvwxyz0123456789AB",
		"pul-0123456789abcdef0123456789abcdef01234567",
		"doo_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"dor_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"dckr_pat_abcdefghijklmnopqrstuvwxyz0", "dckr_oat_abcdefghijklmnopqrstuvwxyz0",
		"dp.pt.abcdefghijklmnopqrstuvwxyz0123456789ABCD", "dp.st.prd.abcdefghijklmnopqrstuvwxyz0123456789",
		"dt0c01.ABCDEFGHIJKLMNOPQRSTUVWX.0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01",
		"NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ0",
		"CFPAT-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
		"AKCp8abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123",
	}
	var tests []spelling
	for _, tok := range tokens {
		// The part past the prefix is what must go.
		rest := tok[len(tok)-16:]
		tests = append(tests,
			spelling{"echo " + tok + " > /tmp/t", []string{rest}, []string{"echo ", " > /tmp/t"}},
			spelling{"curl -H 'X-Thing: " + tok + "' https://api.example.com/v1", []string{rest}, []string{"curl -H 'X-Thing: ", "https://api.example.com/v1"}},
			spelling{`{"client":"ci","value":"` + tok + `"}`, []string{rest}, []string{`{"client":"ci","value":"`}},
		)
	}
	// A lower-case sk- word without digits and capitals stays a name,
	// and a short word after a prefix is no token.
	tests = append(tests,
		spelling{"pip install sk-learn-extra-tools-for-data", nil, []string{"sk-learn-extra-tools-for-data"}},
		spelling{"ls secret_santa.txt dp.pt.txt pul-request", nil, []string{"secret_santa.txt dp.pt.txt pul-request"}},
	)
	checkCases(t, tests)
}

// TestRedactAWSSecretBesideKeyID: the 40-byte secret access key written
// next to its access key id, with no name before it, is secret too: the
// id says what it is.
func TestRedactAWSSecretBesideKeyID(t *testing.T) {
	const id, key = "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	sid := strings.Replace(id, "AKIA", "ASIA", 1)
	checkCases(t, []spelling{
		{"echo " + id + ":" + key + " > ~/.s3fs-creds && s3fs b /mnt", []string{key}, []string{"echo ", "> ~/.s3fs-creds && s3fs b /mnt"}},
		{"echo 'mybucket:" + id + ":" + key + "' > /etc/s3.creds", []string{key}, []string{"echo 'mybucket:", "/etc/s3.creds"}},
		{"printf '" + id + "\\n" + key + "\\nus-east-1\\njson\\n' | aws configure", []string{key}, []string{"us-east-1", "aws configure"}},
		{"printf '%s\\n' " + id + " " + key + " eu-west-1 | aws configure --profile x", []string{key}, []string{"eu-west-1 | aws configure --profile x"}},
		{"Access key ID,Secret access key\n" + id + "," + key + "\n", []string{key}, []string{"Access key ID,Secret access key"}},
		{"aws_keys = (\"" + id + "\", \"" + key + "\")", []string{key}, []string{"aws_keys = ("}},
		{"echo " + sid + " " + key, []string{key}, []string{"echo "}},
		// A word that is not 40 bytes, or goes on, is not the key.
		{"echo " + id + " uploaded 3 files to s3://bucket/path/of/forty/bytes/xx", []string{id}, []string{"uploaded 3 files"}},
	})
}
