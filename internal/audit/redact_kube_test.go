package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedactKubeSecretData: every value under a Kubernetes Secret's data
// or stringData is a credential whatever its key is called, in YAML
// (block or flow, before or after kind), JSON, patches and written
// files; a ConfigMap's or another kind's data is kept.
func TestRedactKubeSecretData(t *testing.T) {
	const b64 = "WnE5U2VjcmV0Nzc="
	checkCases(t, []spelling{
		{"kubectl apply -f - <<EOF\napiVersion: v1\nkind: Secret\nmetadata:\n  name: x\ndata:\n  config: " + b64 + "\n  other: c2VjcmV0Mg==\ntype: Opaque\nEOF",
			[]string{b64, "c2VjcmV0Mg=="}, []string{"data:\n  config: ", "type: Opaque\nEOF"}},
		{"kubectl apply -f - <<'EOF'\napiVersion: v1\nkind: Secret\nstringData:\n  url: postgres://u:S3cr3tZ@h/db\n  other: S3cr3tY\nEOF\nkubectl get secret x",
			[]string{"S3cr3tZ", "S3cr3tY"}, []string{"  url: ", "kubectl get secret x"}},
		{"cat <<EOF | kubectl apply -f -\napiVersion: v1\nkind: Secret\nstringData:\n  \"quoted\": \"S3cr3tZ\"\n  single: 'S3cr3tY'\n  # note\n  last: S3cr3tX\nEOF",
			[]string{"S3cr3tZ", "S3cr3tY", "S3cr3tX"}, []string{`"quoted": "`, "# note"}},
		{"tee s.yaml <<EOF\nkind: Secret\nstringData:\n  app.yaml: |\n    db:\n      pass: S3cr3tZ\n    url: S3cr3tY\n  key: >-\n    S3cr3tX\nmetadata:\n  name: x\nEOF",
			[]string{"S3cr3tZ", "S3cr3tY", "S3cr3tX"}, []string{"app.yaml: |", "metadata:\n  name: x"}},
		// kubectl get -o yaml writes data before kind.
		{"kubectl apply -f - <<EOF\napiVersion: v1\ndata:\n  token: " + b64 + "\nkind: Secret\nmetadata:\n  name: x\nEOF",
			[]string{b64}, []string{"kind: Secret"}},
		{"kubectl apply -f - <<EOF\n  kind: Secret\n  data:\n    token: " + b64 + "\n  metadata:\n    name: x\nEOF",
			[]string{b64}, []string{"name: x"}},
		{"kubectl apply -f - <<EOF\r\nkind: Secret\r\ndata:\r\n  token: " + b64 + "\r\nEOF", []string{b64}, []string{"token: "}},
		{"kubectl apply -f - <<EOF\nkind: 'Secret'\ndata: {token: " + b64 + ", \"b\": \"S3cr3tZ\", 'c': 'S3cr3tY'}\nEOF",
			[]string{b64, "S3cr3tZ", "S3cr3tY"}, []string{"{token: "}},
		{"echo 'apiVersion: v1\nkind: Secret\ndata:\n  a: " + b64 + "' | kubectl apply -f -", []string{b64}, []string{"| kubectl apply -f -"}},
		{`echo '{"apiVersion":"v1","kind":"Secret","data":{"a":"` + b64 + `","b":"S3cr3tZ"}}' > s.json`, []string{b64, "S3cr3tZ"}, []string{`"data":{"a":"`, "> s.json"}},
		{`{"kind": "Secret", "stringData": {"url": "S3cr3tZ"}}`, []string{"S3cr3tZ"}, []string{`"url": "`}},
		{`kubectl patch secret x -p '{"data":{"k":"` + b64 + `"}}'`, []string{b64}, []string{`{"data":{"k":"`}},
		{`kubectl -n prod patch secret/x --type merge -p "{\"stringData\":{\"k\":\"S3cr3tZ\"}}"`, []string{"S3cr3tZ"}, []string{`{\"k\":\"`}},
		{`oc patch secrets x --type=merge -p='{"stringData":{"k":"S3cr3tZ"}}'`, []string{"S3cr3tZ"}, []string{"oc patch secrets x"}},
		// kubectl get secret -o json: the map over lines.
		{"{\n    \"apiVersion\": \"v1\",\n    \"data\": {\n        \"password\": \"" + b64 + "\",\n        \"config\": \"c2VjcmV0Mg==\"\n    },\n    \"kind\": \"Secret\",\n    \"metadata\": {\n        \"name\": \"x\"\n    }\n}",
			[]string{b64, "c2VjcmV0Mg=="}, []string{`"name": "x"`, `"kind": "Secret"`}},
		{"kubectl apply -f - <<EOF\n{\"kind\": \"Secret\", \"stringData\": {\n  \"url\": \"postgres://u:S3cr3tY@h/db\",\n  \"k\": \"S3cr3tZ\"}}\nEOF",
			[]string{"S3cr3tZ", "S3cr3tY"}, []string{"\nEOF"}},
		// Two documents: only the Secret's data goes.
		{"kubectl apply -f - <<EOF\nkind: Secret\ndata:\n  a: " + b64 + "\n---\nkind: ConfigMap\ndata:\n  color: blue\nEOF",
			[]string{b64}, []string{"color: blue"}},
		// Not a Secret's data.
		{"kubectl apply -f - <<EOF\nkind: ConfigMap\ndata:\n  color: blue\n  size: \"12\"\nEOF", nil, []string{"color: blue", `size: "12"`}},
		{"kind: Deployment\nspec:\n  data:\n    x: keep\n", nil, []string{"x: keep"}},
		{`kubectl patch deployment x -p '{"data":{"k":"keep"}}'`, nil, []string{`"k":"keep"`}},
		{"kubectl get secret x -o jsonpath='{.data}'", nil, []string{"{.data}"}},
		{"kind: Secret\n# data: see the vault\nmetadata:\n  name: keep\n", nil, []string{"name: keep"}},
	})
}

// TestRedactKubeSecretArgs: a Secret written by a tool's content or stdin.
func TestRedactKubeSecretArgs(t *testing.T) {
	for _, args := range []map[string]any{
		{"path": "s.yaml", "content": "apiVersion: v1\nkind: Secret\ndata:\n  a: WnE5U2VjcmV0Nzc=\n"},
		{"path": "s.json", "content": `{"apiVersion":"v1","kind":"Secret","data":{"a":"WnE5U2VjcmV0Nzc="}}`},
		{"command": "kubectl apply -f -", "stdin": "kind: Secret\nstringData:\n  a: WnE5U2VjcmV0Nzc=\n"},
	} {
		in, _ := json.Marshal(args)
		t.Run(string(in), func(t *testing.T) {
			if got := string(RedactArgs(in, 0)); strings.Contains(got, "WnE5U2VjcmV0Nzc=") {
				t.Errorf("RedactArgs(%s) = %s: the value is kept", in, got)
			}
		})
	}
}
