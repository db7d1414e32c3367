package policy

import (
	"path"
	"strings"
)

// A kubeconfig can name a credential program that kubectl and helm run
// (a user's exec command, a gcp auth provider's cmd-path), so one named
// on the command line or in KUBECONFIG is tier 3: a tier 1 call may have
// written it under /tmp. The files k3s, RKE2 and kubeadm write for their
// administrators (/etc/rancher/k3s/k3s.yaml, /etc/kubernetes/admin.conf)
// and the operator's own ~/.kube are as trusted as the default
// ~/.kube/config, which a plain kubectl get reads: only root writes under
// /etc, and nothing below tier 2 writes outside the temporary
// directories.

// The same holds for ssh's configuration (ssh -F): ~/.ssh/config and
// /etc/ssh/ssh_config, whose Match exec runs commands, are read by every
// plain ssh.

// trustedKubeconfig reports whether v names a kubeconfig in one of those
// places: under /etc, or under ~/.kube.
func (e *eval) trustedKubeconfig(v arg) bool { return e.operatorFile(v, ".kube") }

// operatorFile reports whether v names a file under /etc, or under the
// directory dir of the home (spelled with ~, or with the local home
// warden knows).
func (e *eval) operatorFile(v arg, dir string) bool {
	if !v.known || v.glob && isPattern(v.val) {
		return false
	}
	p := v.val
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return strings.HasPrefix(path.Clean(rest), dir+"/")
	}
	if !strings.HasPrefix(p, "/") {
		return false
	}
	p = path.Clean(p)
	if strings.HasPrefix(p, "/etc/") {
		return true
	}
	home := e.p.protect.home
	return e.local && home != "" && home != "/" && strings.HasPrefix(p, home+"/"+dir+"/")
}

// trustedKubeconfigs reports whether every file of a KUBECONFIG value
// (a colon-separated list) is trusted.
func (e *eval) trustedKubeconfigs(val string) bool {
	for _, f := range strings.Split(val, ":") {
		if !e.trustedKubeconfig(arg{val: f, known: true}) {
			return false
		}
	}
	return true
}

// untrustedKubeconfig reports whether one of c's --kubeconfig values is
// not a trusted kubeconfig.
func (c *call) untrustedKubeconfig() bool {
	for _, v := range c.optVals(c.args, "--kubeconfig") {
		if !c.e.trustedKubeconfig(v) {
			return true
		}
	}
	return false
}
