package policy

import "testing"

// TestMethodOverrideHeaders: web frameworks and API gateways take a
// request with X-HTTP-Method-Override (or X-HTTP-Method, X-Method-Override)
// as the method it names, so a GET carrying DELETE deletes as curl -X
// DELETE does, in every client that sets headers and every spelling of
// the header. A GET override stays the read it is.
func TestMethodOverrideHeaders(t *testing.T) {
	p := protectedPolicy(t)
	url := " https://api.example.com/v1/items/7"
	var deletes, changes []string
	for _, h := range []string{"X-HTTP-Method-Override", "x-http-method-override", "X-HTTP-Method", "X-Method-Override", "x-method-override"} {
		deletes = append(deletes,
			`curl -H '`+h+`: DELETE'`+url,
			`curl -sS -H "`+h+`:delete"`+url,
			`curl --header '`+h+`: DELETE'`+url,
			`curl --header='`+h+`: DELETE'`+url,
			`curl -H`+h+`:DELETE`+url,
			`wget -qO- --header='`+h+`: DELETE'`+url,
			`wget -qO- --header '`+h+`: Delete'`+url,
			`http`+url+` `+h+`:DELETE`,
			`xh`+url+` '`+h+`: DELETE'`,
		)
		changes = append(changes,
			`curl -H '`+h+`: PUT'`+url,
			`curl -H '`+h+`: PATCH'`+url,
			`wget -qO- --header='`+h+`: POST'`+url,
			`https`+url+` `+h+`:POST`,
			`curl -H "`+h+`: $M"`+url,
		)
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, deletes...))
	runBlindHosts(t, p, sameCases(TierMutate, false, changes...))
	runExactHosts(t, p, []exactCase{
		{"GET override", `curl -sH 'X-HTTP-Method-Override: GET'` + url, TierBenign},
		{"other header", `curl -H 'X-Request-Id: DELETE'` + url, TierBenign},
		{"accept", `curl -H 'Accept: application/json'` + url, TierBenign},
		{"httpie header", `http` + url + ` Accept:application/json`, TierBenign},
	})
}

// TestKubectlRawProxy: kubectl get --raw of a path through a service's or
// pod's proxy is a GET the API server passes to that service, a request
// as curl's is (tier 1, refused in readonly); --raw of the API's own
// paths stays a read.
func TestKubectlRawProxy(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierBenign, false,
		"kubectl get --raw /api/v1/namespaces/default/services/web/proxy/admin/reset",
		"kubectl get --raw=/api/v1/namespaces/default/services/https:web:443/proxy/",
		"kubectl get --raw /api/v1/namespaces/kube-system/pods/p-0/proxy/metrics",
		"kubectl -n prod get --raw /api/v1/nodes/n1/proxy/configz",
		`kubectl get --raw "$P"`,
		"sudo kubectl get --raw /api/v1/namespaces/default/services/web:80/proxy/x",
	))
	runExactHosts(t, p, []exactCase{
		{"nodes", "kubectl get --raw /api/v1/nodes", TierRead},
		{"healthz", "kubectl get --raw=/healthz", TierRead},
		{"metrics", "kubectl get --raw /apis/metrics.k8s.io/v1beta1/nodes", TierRead},
	})
}
