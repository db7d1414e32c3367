package audit

import "testing"

// TestRedactHeaderDirectives: a header a web server or proxy sets by a
// directive, its name and value as two words, loses its value (keeping
// an auth scheme); other headers and directives are kept.
func TestRedactHeaderDirectives(t *testing.T) {
	checkCases(t, []spelling{
		{`proxy_set_header Authorization "Basic UzNjcjN0Wg==";`, []string{"UzNjcjN0Wg=="}, []string{`proxy_set_header Authorization "Basic `, `";`}},
		{"    proxy_set_header   Authorization  'Bearer S3cr3tZ';", []string{"S3cr3tZ"}, []string{"Bearer "}},
		{"proxy_set_header X-Api-Key S3cr3tZ;\nproxy_pass http://b;", []string{"S3cr3tZ"}, []string{"X-Api-Key ", ";\nproxy_pass http://b;"}},
		{"grpc_set_header x-auth-token S3cr3tZ;", []string{"S3cr3tZ"}, []string{"x-auth-token "}},
		{`add_header Set-Cookie "sid=S3cr3tZ; HttpOnly";`, []string{"S3cr3tZ"}, []string{"add_header Set-Cookie "}},
		{`fastcgi_param DB_PASSWORD S3cr3tZ;`, []string{"S3cr3tZ"}, []string{"fastcgi_param DB_PASSWORD "}},
		{`RequestHeader set Authorization "Bearer S3cr3tZ"`, []string{"S3cr3tZ"}, []string{`RequestHeader set Authorization "Bearer `}},
		{`RequestHeader append X-Session-Id "S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"X-Session-Id "}},
		{`Header always set X-Api-Key "S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"Header always set X-Api-Key "}},
		{`http-request set-header Authorization "Basic UzNjcjN0Wg=="`, []string{"UzNjcjN0Wg=="}, []string{"set-header Authorization "}},
		{"reverse_proxy b {\n  header_up Authorization \"Bearer S3cr3tZ\"\n}", []string{"S3cr3tZ"}, []string{"header_up Authorization "}},
		{`request_header_add Proxy-Authorization "Basic UzNjcjN0Wg==" all`, []string{"UzNjcjN0Wg=="}, []string{`" all`}},
		{"cat > /etc/nginx/conf.d/a.conf <<EOF\nlocation / {\n  proxy_set_header Authorization \"Basic UzNjcjN0Wg==\";\n}\nEOF", []string{"UzNjcjN0Wg=="}, []string{"location / {"}},
		// Kept: headers that are no secret.
		{`proxy_set_header Host $host; add_header X-Frame-Options DENY; RequestHeader set X-Forwarded-Proto "https"`, nil, []string{"X-Frame-Options DENY", `"https"`}},
		{"proxy_set_header Authorization $http_authorization;", nil, []string{"$http_authorization"}},
		// nginx's *_pass directives name an upstream, no password; a
		// password in its URL still goes.
		{"location / {\n  proxy_pass http://backend:8080;\n  fastcgi_pass unix:/run/php.sock;\n  uwsgi_pass 127.0.0.1:9000;\n}", nil, []string{"proxy_pass http://backend:8080;", "fastcgi_pass unix:/run/php.sock;", "uwsgi_pass 127.0.0.1:9000;"}},
		{"proxy_pass http://bob:S3cr3tZ@backend;", []string{"S3cr3tZ"}, []string{"proxy_pass http://bob:"}},
	})
}
