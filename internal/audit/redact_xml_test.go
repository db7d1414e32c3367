package audit

import "testing"

// TestRedactXMLNamedElements: an XML element whose name or key attribute
// names a secret loses its text (also in CDATA), an element named like a
// secret loses its value attribute or its text past other attributes,
// and the names stay readable.
func TestRedactXMLNamedElements(t *testing.T) {
	checkCases(t, []spelling{
		{`<property name="hibernate.connection.password">S3cr3tZ</property>`, []string{"S3cr3tZ"}, []string{`<property name="hibernate.connection.password">`, "</property>"}},
		{`<property name='javax.net.ssl.keyStorePassword'>S3cr3tZ</property>`, []string{"S3cr3tZ"}, []string{`name='javax.net.ssl.keyStorePassword'>`}},
		{`<entry key="password">S3cr3tZ</entry>`, []string{"S3cr3tZ"}, []string{`<entry key="password">`, "</entry>"}},
		{`<entry key="db.secret" type="string">S3cr3tZ</entry>`, []string{"S3cr3tZ"}, []string{`key="db.secret" type="string">`}},
		{`<string name="api_key">S3cr3tZ</string>`, []string{"S3cr3tZ"}, []string{`<string name="api_key">`}},
		{`<string name="github_token" translatable="false">S3cr3tZ</string>`, []string{"S3cr3tZ"}, []string{`translatable="false">`}},
		{`<Parameter Name="DB_PASSWORD">S3cr3tZ</Parameter>`, []string{"S3cr3tZ"}, []string{`<Parameter Name="DB_PASSWORD">`}},
		{`<setting name="SmtpPassword" serializeAs="String"><![CDATA[S3cr3tZ]]></setting>`, []string{"S3cr3tZ"}, []string{`serializeAs="String">`, "</setting>"}},
		{`<password><![CDATA[S3cr3tZ]]></password>`, []string{"S3cr3tZ"}, []string{"<password><![CDATA[", "]]></password>"}},
		{`<password type="plain">S3cr3tZ</password>`, []string{"S3cr3tZ"}, []string{`<password type="plain">`, "</password>"}},
		{`<Password value="S3cr3tZ"/>`, []string{"S3cr3tZ"}, []string{`<Password value="`}},
		{`<apiKey encrypted="false" value='S3cr3tZ' />`, []string{"S3cr3tZ"}, []string{`<apiKey encrypted="false" value='`}},
		{"cat > /srv/app/app.xml <<EOF\n<config>\n  <entry key=\"token\">S3cr3tZ</entry>\n</config>\nEOF", []string{"S3cr3tZ"}, []string{`<entry key="token">`, "</config>"}},
		{`echo "<entry key=\"password\">S3cr3tZ</entry>" >> conf.xml`, []string{"S3cr3tZ"}, []string{`<entry key=\"password\">`, ">> conf.xml"}},
		// Not secrets: names that name none, empty elements, values kept.
		{`<property name="hibernate.dialect">org.hibernate.dialect.PostgreSQLDialect</property>`, nil, []string{"org.hibernate.dialect.PostgreSQLDialect"}},
		{`<entry key="password.policy.length">12</entry><string name="app_name">Readable</string>`, nil, []string{`<string name="app_name">Readable</string>`}},
		{`<property name="password"/><property name="user">bob</property>`, nil, []string{`<property name="user">bob</property>`}},
		{`<passwordPolicy minLength="12">strict</passwordPolicy>`, nil, []string{"strict"}},
	})
}
