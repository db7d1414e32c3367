package audit

import "testing"

// TestRedactURLPathSecrets: chat webhooks and bot APIs carry their secret
// in the URL's path with no name before it; it goes, quoted or not, and
// the host, the path before it and the query after it stay.
func TestRedactURLPathSecrets(t *testing.T) {
	checkSpellings(t, []spelling{
		{"curl -X POST -d '{\"text\":\"hi\"}' https://hooks.slack.com/services/T00000000/B00000000/S3cr3tZxxxxxxxxxxxxxxx", []string{"S3cr3tZ"}, []string{"-d '{\"text\":\"hi\"}' https://hooks.slack.com/services/"}},
		{"curl 'https://hooks.slack.com/workflows/T0/A0/123/S3cr3tZ' && echo sent", []string{"S3cr3tZ"}, []string{"https://hooks.slack.com/workflows/", "' && echo sent"}},
		{"curl \"https://discord.com/api/webhooks/123456789/S3cr3tZ-abc_def\" -d x", []string{"S3cr3tZ"}, []string{"https://discord.com/api/webhooks/123456789/", "\" -d x"}},
		{"curl https://discordapp.com/api/v10/webhooks/123/S3cr3tZ?wait=true", []string{"S3cr3tZ"}, []string{"/webhooks/123/", "?wait=true"}},
		{"curl -s \"https://api.telegram.org/bot123456789:S3cr3tZAAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage?chat_id=1&text=hi\"", []string{"S3cr3tZ"}, []string{"https://api.telegram.org/bot123456789:", "/sendMessage?chat_id=1&text=hi"}},
		{"ssh h 'wget -qO- https://api.telegram.org/bot123:S3cr3tZ/getMe'", []string{"S3cr3tZ"}, []string{"/getMe'"}},
		{"curl -d @m.json https://contoso.webhook.office.com/webhookb2/S3cr3tZ-a@b/IncomingWebhook/S3cr3tZ/x", []string{"S3cr3tZ"}, []string{"https://contoso.webhook.office.com/webhookb2/"}},
		// Must stay: the same hosts' paths without a secret.
		{"curl https://hooks.slack.com/", nil, []string{"https://hooks.slack.com/"}},
		{"curl https://discord.com/channels/1/2", nil, []string{"https://discord.com/channels/1/2"}},
		{"curl https://api.telegram.org/file/x", nil, []string{"https://api.telegram.org/file/x"}},
		{"curl https://api.github.com/repos/o/r/hooks/services", nil, []string{"https://api.github.com/repos/o/r/hooks/services"}},
	})
}
