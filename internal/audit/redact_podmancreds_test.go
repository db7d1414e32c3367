package audit

import "testing"

// TestRedactPodmanCredsKeepUser: podman's and buildah's --creds is
// user[:password], as skopeo's is: the password goes and the user name
// stays; alone, the name asks for the password and stays.
func TestRedactPodmanCredsKeepUser(t *testing.T) {
	runSpellingCases(t, []spelling{
		{"podman run --creds bob:S3cr3tZ quay.io/x", []string{"S3cr3tZ"}, []string{"--creds bob:"}},
		{"podman pull --creds bob:S3cr3tZ quay.io/x", []string{"S3cr3tZ"}, []string{"--creds bob:"}},
		{"buildah from --creds=bob:S3cr3tZ quay.io/x", []string{"S3cr3tZ"}, []string{"--creds=bob:"}},
		{"sudo podman push --creds 'bob:S3cr3tZ' img quay.io/x", []string{"S3cr3tZ"}, []string{"--creds 'bob:"}},
		{"/usr/bin/buildah push --creds bob:S3cr3tZ img", []string{"S3cr3tZ"}, []string{"--creds bob:"}},
		{"podman pull --creds bob quay.io/x", nil, []string{"--creds bob quay.io/x"}},
		// Still secret.
		{"podman pull --creds=:S3cr3tZ quay.io/x", []string{"S3cr3tZ"}, []string{"quay.io/x"}},
		{"podman login -u bob -p S3cr3tZ quay.io", []string{"S3cr3tZ"}, []string{"-u bob -p"}},
		{"buildah login -u bob -pS3cr3tZ quay.io", []string{"S3cr3tZ"}, []string{"-u bob"}},
		{"podman login --password=S3cr3tZ quay.io", []string{"S3cr3tZ"}, []string{"quay.io"}},
		{"podman run -p 8080:80 nginx", nil, []string{"-p 8080:80 nginx"}},
	})
}
