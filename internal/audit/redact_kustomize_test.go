package audit

import "testing"

// TestRedactKustomizeSecretLiterals: a kustomization's secretGenerator
// literals and kustomize edit add secret --from-literal hold secrets
// whatever their names; a configMapGenerator's are kept.
func TestRedactKustomizeSecretLiterals(t *testing.T) {
	checkCases(t, []spelling{
		{"cat > kustomization.yaml <<EOF\nsecretGenerator:\n- name: app\n  literals:\n  - url=postgres://x\n  - anything=S3cr3tZ\n  - other=\"S3cr3tY\"\n  - 'quoted=S3cr3tX'\nEOF",
			[]string{"S3cr3tZ", "S3cr3tY", "S3cr3tX", "postgres://x"}, []string{"- anything=", "- other=\"", "\nEOF"}},
		{"secretGenerator:\n  - name: app\n    literals:\n      - anything=S3cr3tZ\n    type: Opaque\n", []string{"S3cr3tZ"}, nil},
		{"configMapGenerator:\n- name: cfg\n  literals:\n  - color=blue\nsecretGenerator:\n- name: s\n  literals:\n  - anything=S3cr3tZ\n", []string{"S3cr3tZ"}, []string{"color=blue"}},
		{"kustomize edit add secret app --from-literal=anything=S3cr3tZ", []string{"S3cr3tZ"}, []string{"--from-literal=anything="}},
		{"kustomize edit add secret app --from-literal anything=S3cr3tZ --from-literal b=S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"--from-literal b="}},
		// Kept: a configMapGenerator's literals and configmap literals.
		{"configMapGenerator:\n- name: cfg\n  literals:\n  - color=blue\n  - size=3\n", nil, []string{"color=blue", "size=3"}},
		{"kustomize edit add configmap cfg --from-literal=color=blue", nil, []string{"color=blue"}},
	})
}
