package audit

import "testing"

// TestRedactTypedValues: a value field whose element or object names a
// secret by any of its name, key or type fields, before or after it:
// HTML's <input type="password" value="…">, Keycloak's credential
// objects {"type": "password", "value": "…"}. Other elements' and
// entries' values stay.
func TestRedactTypedValues(t *testing.T) {
	checkCases(t, []spelling{
		{`<input type="password" value="S3cr3tZ">`, []string{"S3cr3tZ"}, []string{`<input type="password" value="`}},
		{`<input id="pw" type="password" name="p" value='S3cr3tZ' />`, []string{"S3cr3tZ"}, []string{`name="p" value='`}},
		{`<input value="S3cr3tZ" type="password">`, []string{"S3cr3tZ"}, []string{`" type="password">`}},
		{`{"type":"password","value":"S3cr3tZ","temporary":false}`, []string{"S3cr3tZ"}, []string{`"temporary":false`}},
		{`{"value": "S3cr3tZ", "type": "password"}`, []string{"S3cr3tZ"}, []string{`"type": "password"`}},
		{`curl -X PUT h/users/x/reset-password -d '{"type":"password","value":"S3cr3tZ","temporary":false}'`, []string{"S3cr3tZ"}, []string{"reset-password"}},
		{`kcadm.sh create users -r r -s 'credentials=[{"type":"password","value":"S3cr3tZ"}]'`, []string{"S3cr3tZ"}, []string{"kcadm.sh create users -r r -s 'credentials="}},
		{`{"type": "token", "value": "S3cr3tZ"}`, []string{"S3cr3tZ"}, []string{`"type": "token"`}},
		// Kept: other types and entries.
		{`{"type":"text","value":"hello"}`, nil, []string{`"value":"hello"`}},
		{`<input type="text" name="user" value="bob">`, nil, []string{`value="bob"`}},
		{`<input type="submit" value="Login">`, nil, []string{`value="Login"`}},
		{"aws cloudformation deploy --parameter-overrides ParameterKey=Env,ParameterValue=prod ParameterKey=DbPassword,ParameterValue=S3cr3tZ", []string{"S3cr3tZ"}, []string{"ParameterValue=prod"}},
		{`[{"value":"5432","name":"PORT"},{"name":"DB_PASSWORD","value":"S3cr3tZ"}]`, []string{"S3cr3tZ"}, []string{`"value":"5432"`}},
	})
}

// TestRedactSecureStringValues: AWS SSM's parameter of type SecureString
// holds a secret in its Value, in either field order; a String's stays.
func TestRedactSecureStringValues(t *testing.T) {
	checkCases(t, []spelling{
		{`aws ssm put-parameter --cli-input-json '{"Name":"x","Value":"S3cr3tZ","Type":"SecureString"}'`, []string{"S3cr3tZ"}, []string{`"Type":"SecureString"`}},
		{`aws ssm put-parameter --cli-input-json '{"Type": "SecureString", "Name": "x", "Value": "S3cr3tZ"}'`, []string{"S3cr3tZ"}, []string{`"Name": "x"`}},
		{`aws ssm put-parameter --cli-input-json '{"Name":"x","Value":"v1","Type":"String"}'`, nil, []string{`"Value":"v1"`}},
	})
}
