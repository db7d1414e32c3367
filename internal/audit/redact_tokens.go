package audit

import (
	"encoding/base64"
	"strings"
)

// Tokens recognised by their own shape (a provider's prefix, a JWT's three
// parts), wherever they stand, with no key or option naming them.

// token formats recognised by prefix: the rest must be at least min bytes
// from the given class.
type tokenRule struct {
	prefix string
	min    int
	class  func(byte) bool
	check  func(string) bool
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
func isAlnumUnderscore(c byte) bool { return isAlnum(c) || c == '_' }
func isAlnumDash(c byte) bool       { return isAlnum(c) || c == '-' }
func isB64URL(c byte) bool          { return isAlnum(c) || c == '-' || c == '_' }
func isB64URLDot(c byte) bool       { return isB64URL(c) || c == '.' }
func isUpperDigit(c byte) bool      { return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
func isHex(c byte) bool             { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
func isAlnumDot(c byte) bool        { return isAlnum(c) || c == '.' }

// isB64Any: standard or URL-safe base64 with padding, which tokens that
// wrap a JSON claim set (Grafana Cloud's glc_, Sentry's sntrys_,
// 1Password's ops_) carry.
func isB64Any(c byte) bool { return isB64URL(c) || c == '+' || c == '/' || c == '=' }

// isScramByte: a SCRAM verifier, $iterations:salt$storedkey:serverkey in
// base64.
func isScramByte(c byte) bool { return isAlnum(c) || strings.IndexByte("$:+/=", c) >= 0 }

// mixed reports whether a bare sk- key has a digit and an upper-case
// letter, which package names like sk-learn-… do not.
func mixed(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

var tokenRules = func() (t [256][]tokenRule) {
	for c, rules := range map[byte][]tokenRule{
		'g': {
			{"ghp_", 20, isAlnum, nil}, {"gho_", 20, isAlnum, nil}, {"ghu_", 20, isAlnum, nil},
			{"ghs_", 20, isAlnum, nil}, {"ghr_", 20, isAlnum, nil},
			{"github_pat_", 20, isAlnumUnderscore, nil}, {"glpat-", 20, isB64URL, nil}, {"glsa_", 30, isAlnumUnderscore, nil},
			// GitLab's pipeline trigger, deploy and runner tokens.
			{"glptt-", 20, isB64URL, nil}, {"gldt-", 20, isB64URL, nil}, {"glrt-", 20, isB64URL, nil},
			// GitLab's CI job, incoming mail, agent, OAuth application,
			// SCIM and feature flag tokens; Grafana Cloud; Groq.
			{"glcbt-", 20, isB64URL, nil}, {"glimt-", 20, isB64URL, nil}, {"glagent-", 20, isB64URL, nil},
			{"gloas-", 20, isB64URL, nil}, {"glsoat-", 20, isB64URL, nil}, {"glffct-", 20, isB64URL, nil},
			{"glc_", 30, isB64Any, nil}, {"gsk_", 40, isAlnum, nil},
		},
		'G': {
			{"GR1348941", 20, isB64URL, nil}, // a GitLab runner registration token
			{"GOCSPX-", 20, isB64URL, nil},   // a Google OAuth client secret
		},
		// PostgreSQL's stored passwords (pg_authid, pgbouncer's
		// userlist.txt), which log in as well as the password does.
		'm': {{"md5", 32, isHex, func(h string) bool { return len(h) == 32 }}},
		'x': {
			{"xoxa-", 10, isAlnumDash, nil}, {"xoxb-", 10, isAlnumDash, nil}, {"xoxp-", 10, isAlnumDash, nil},
			{"xoxr-", 10, isAlnumDash, nil}, {"xoxs-", 10, isAlnumDash, nil}, {"xapp-", 10, isAlnumDash, nil},
			{"xoxe.", 10, isAlnumDash, nil}, {"xoxe-", 10, isAlnumDash, nil}, // Slack's refresh tokens
			{"xkeysib-", 40, isAlnumDash, nil}, {"xai-", 40, isAlnum, nil}, // Brevo, xAI
		},
		's': {
			{"sk_live_", 10, isAlnum, nil}, {"sk_test_", 10, isAlnum, nil},
			// OpenRouter's keys are lower-case hex, which sk-'s mixed
			// check would pass over, so they come first; then
			// ElevenLabs' sk_ and Mapbox's secret sk.eyJ….
			{"sk-ant-", 20, isB64URL, nil}, {"sk-proj-", 20, isB64URL, nil}, {"sk-or-v1-", 40, isAlnum, nil}, {"sk-", 20, isB64URL, mixed},
			{"sk_", 40, isAlnum, nil}, {"sk.eyJ", 40, isB64URLDot, nil},
			// Square's access token and application secret, Sentry's
			// organization and user tokens, Supabase, Notion's older
			// integration secrets.
			{"sq0atp-", 20, isB64URL, nil}, {"sq0csp-", 20, isB64URL, nil},
			{"sntrys_", 40, isB64Any, nil}, {"sntryu_", 40, isAlnum, nil}, {"sbp_", 40, isAlnum, nil},
			{"secret_", 40, isAlnum, nil},
			// Shopify's admin, custom-app, app and partner tokens; Vault's
			// service tokens before 1.10.
			{"shpat_", 20, isAlnum, nil}, {"shpss_", 20, isAlnum, nil}, {"shpca_", 20, isAlnum, nil}, {"shppa_", 20, isAlnum, nil},
			{"s.", 24, isAlnum, mixed},
		},
		'b': {{"base64url.bearer.authorization.k8s.io.", 8, isB64URL, nil}},                                                       // a Kubernetes bearer token in a WebSocket subprotocol
		'w': {{"whsec_", 20, isAlnum, nil}},                                                                                       // a Stripe webhook's signing secret
		'y': {{"ya29.", 20, isB64URL, nil}},                                                                                       // a Google OAuth access token
		'S': {{"SG.", 40, isB64URLDot, nil}, {"SCRAM-SHA-256", 40, isScramByte, nil}},                                             // SendGrid
		'l': {{"lin_api_", 30, isAlnum, nil}, {"lsv2_pt_", 30, isAlnumUnderscore, nil}, {"lsv2_sk_", 30, isAlnumUnderscore, nil}}, // Linear, LangSmith
		'f': {{"figd_", 20, isB64URL, nil}, {"fo1_", 30, isB64URL, nil}},                                                          // Figma, Fly.io
		'E': {{"EAA", 30, isAlnum, nil}},                                                                                          // a Facebook access token
		'k': {{"key-", 30, isAlnum, nil}},                                                                                         // Mailgun
		'o': {{"oy2", 40, isAlnum, nil}, {"ops_", 40, isB64Any, nil}},                                                             // NuGet, a 1Password service account
		'r': {{"rk_live_", 10, isAlnum, nil}, {"rk_test_", 10, isAlnum, nil}, {"rubygems_", 40, isAlnum, nil}, {"r8_", 30, isAlnum, nil}, {"rnd_", 25, isAlnum, nil}},
		'n': {{"npm_", 30, isAlnum, nil}, {"nfp_", 30, isAlnum, nil}, {"ntn_", 30, isAlnum, nil}}, // npm, Netlify, Notion
		'h': {{"hvs.", 20, isB64URL, nil}, {"hvb.", 20, isB64URL, nil}, {"hvr.", 20, isB64URL, nil}, {"hf_", 30, isAlnum, nil}},
		't': {{"tskey-", 20, isAlnumDash, nil}},
		'p': {
			{"pypi-", 50, isB64URL, nil}, {"pscale_tkn_", 20, isB64URL, nil}, {"pscale_pw_", 20, isB64URL, nil},
			// HubSpot's private apps, Perplexity, Prefect, PostHog's
			// personal keys, Pulumi.
			{"pat-na1-", 30, isAlnumDash, nil}, {"pat-eu1-", 30, isAlnumDash, nil}, {"pplx-", 40, isAlnum, nil},
			{"pnu_", 30, isAlnum, nil}, {"phx_", 30, isAlnum, nil}, {"pul-", 40, isHex, nil},
		},
		'd': {
			{"dop_v1_", 40, isAlnum, nil}, {"doo_v1_", 40, isAlnum, nil}, {"dor_v1_", 40, isAlnum, nil}, {"dapi", 30, isAlnum, nil},
			// Docker Hub's personal and organization tokens, Doppler's,
			// Dynatrace's.
			{"dckr_pat_", 20, isB64URL, nil}, {"dckr_oat_", 20, isB64URL, nil},
			{"dp.pt.", 30, isAlnum, nil}, {"dp.st.", 30, isAlnumDot, nil}, {"dp.sa.", 30, isAlnum, nil}, {"dp.ct.", 30, isAlnum, nil},
			{"dt0c01.", 40, isAlnumDot, nil},
		},
		'P': {{"PMAK-", 40, isAlnumDash, nil}},  // Postman
		'N': {{"NRAK-", 20, isUpperDigit, nil}}, // New Relic
		'C': {{"CFPAT-", 40, isB64URL, nil}},    // Contentful
		// A K3s or RKE2 join token (K10<CA hash>::<user>:<password>), as
		// /var/lib/rancher/k3s/server/node-token holds it: it joins a node
		// to the cluster.
		'K': {{"K10", 66, isK3sTokenByte, k3sToken}},
		'A': {
			{"AIza", 30, isB64URL, nil}, {"ATATT3", 20, isB64URL, nil}, // Atlassian
			// age's secret keys (Bech32, upper case), JFrog's API keys.
			{"AGE-SECRET-KEY-1", 50, isUpperDigit, nil}, {"AKCp", 60, isAlnum, nil},
			{"AKIA", 16, isUpperDigit, nil}, {"ASIA", 16, isUpperDigit, nil}, {"AGPA", 16, isUpperDigit, nil},
			{"AIDA", 16, isUpperDigit, nil}, {"AROA", 16, isUpperDigit, nil}, {"AIPA", 16, isUpperDigit, nil},
			{"ANPA", 16, isUpperDigit, nil}, {"ANVA", 16, isUpperDigit, nil}, {"ABIA", 16, isUpperDigit, nil},
		},
	} {
		t[c] = rules
	}
	return t
}()

// isK3sTokenByte: the CA hash in hex, then "::", a user name and a password.
func isK3sTokenByte(c byte) bool { return isB64URL(c) || c == ':' || c == '.' }

// k3sToken reports whether what follows K10 is a 64-digit hex hash and "::".
func k3sToken(t string) bool {
	if len(t) < 66 || t[64:66] != "::" {
		return false
	}
	for i := 0; i < 64; i++ {
		if !isHex(t[i]) {
			return false
		}
	}
	return true
}

// tokenEnd returns the end of a recognised token starting the word s[i:j],
// or i when there is none.
func tokenEnd(s string, i, j int) int {
	w := s[i:j]
	if strings.HasPrefix(w, "eyJ") {
		return jwtEnd(s, i, j)
	}
	if strings.HasPrefix(w, pemB64) {
		if end := pemB64End(s, i); end > i {
			return end
		}
	}
	rules := tokenRules[w[0]]
	for k := range rules {
		t := &rules[k]
		if !strings.HasPrefix(w, t.prefix) {
			continue
		}
		end := i + len(t.prefix)
		for end < len(s) && t.class(s[end]) {
			end++
		}
		if end-i-len(t.prefix) >= t.min && (t.check == nil || t.check(s[i+len(t.prefix):end])) {
			return end
		}
		return i
	}
	return i
}

// jwtEnd matches header.payload[.signature] of base64url segments, the
// header starting eyJ ('{"').
func jwtEnd(s string, i, j int) int {
	k := i
	for seg := 0; seg < 3; seg++ {
		st := k
		for k < j && isB64URL(s[k]) {
			k++
		}
		if seg < 2 && (k-st < 8 || k >= j || s[k] != '.') {
			return i
		}
		if seg < 2 {
			k++
		}
	}
	return k
}

// awsSecretAfter returns the span of an AWS secret access key (exactly 40
// bytes of base64's alphabet) that follows the access key id ending at k,
// a few separators apart (AKIA…:secret in passwd-s3fs, AKIA…,secret in
// an IAM CSV, the two answers fed to aws configure), or an empty span.
// The id says what the next word is, though its shape alone would not.
func awsSecretAfter(s string, k int) (int, int) {
	from := k
	for from < len(s) && from-k < 4 {
		switch {
		case strings.IndexByte(" \t\r\n:,;\"'", s[from]) >= 0:
			from++
			continue
		case s[from] == '\\' && from+1 < len(s) && s[from+1] == 'n':
			from += 2 // printf's escaped line end
			continue
		}
		break
	}
	if from == k {
		return k, k
	}
	to := from
	for to < len(s) && (isAlnum(s[to]) || s[to] == '/' || s[to] == '+') {
		to++
	}
	if to-from != 40 || to < len(s) && s[to] == '=' {
		return k, k
	}
	return from, to
}

// pemB64 is "-----BEGIN" in base64, which a PEM block encoded whole
// starts with (SSH_KEY_B64=…, echo … | base64 -d > id_rsa, a kubeconfig's
// client-key-data).
const pemB64 = "LS0tLS1CRUdJTi"

// maxPEMB64 bounds a base64 PEM block; the largest private keys stay
// well below.
const maxPEMB64 = 64 << 10

// pemB64End returns the end of the base64-encoded PEM private key block
// starting at i, its lines included when the encoder wrapped them, or i
// when the block is no private key (a certificate stays).
func pemB64End(s string, i int) int {
	head := s[i:min(len(s), i+96)]
	n := 0
	for n < len(head) && isB64Any(head[n]) {
		n++
	}
	label, err := base64.StdEncoding.DecodeString(head[:n/4*4])
	if err != nil && len(label) == 0 {
		return i
	}
	first := string(label)
	if e := strings.IndexByte(first, '\n'); e >= 0 {
		first = first[:e]
	}
	if !strings.Contains(first, "PRIVATE KEY") && !strings.Contains(first, "Static key") {
		return i
	}
	end, line := i, i
	for end < len(s) && end-i < maxPEMB64 {
		if isB64Any(s[end]) {
			end++
			continue
		}
		// A wrapped line (base64 wraps at 76) goes on after its line end.
		if s[end] == '\n' && end+1 < len(s) && isB64Any(s[end+1]) && end-line >= 60 {
			end++
			line = end
			continue
		}
		break
	}
	return end
}
