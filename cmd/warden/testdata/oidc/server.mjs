// A real OAuth 2.1 / OpenID authorization server (oidc-provider) for warden's
// OAuth end-to-end tests. It serves two issuers on loopback that share one
// signing key, so a token from the second differs from a good one only in
// its issuer:
//
//   node server.mjs RESOURCE
//
// prints "issuer A URL" and "issuer B URL" lines on stdout when ready.
// Clients (client_credentials, secret "secret-" + id):
//   warden-admin    warden:read warden:operate warden:admin warden:operator other:thing
//   warden-reader   warden:read
//   warden-short    like warden-admin, but tokens live 2 seconds
// POST /test/id_token?sub=NAME on either issuer returns a signed ID token
// whose audience is the RESOURCE, so only its type gives it away.
import http from 'node:http';
import crypto from 'node:crypto';
import Provider from 'oidc-provider';

const resource = process.argv[2];
if (!resource) {
  console.error('usage: node server.mjs RESOURCE');
  process.exit(2);
}
const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key-1', use: 'sig', alg: 'RS256' };
const scopes = 'warden:read warden:operate warden:admin warden:operator other:thing';

function client(id, scope) {
  return {
    client_id: id,
    client_secret: 'secret-' + id,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    scope,
  };
}

async function start() {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [
      client('warden-admin', scopes),
      client('warden-reader', 'warden:read'),
      client('warden-short', scopes),
      // The ID-token client is named like the resource, so an ID token
      // issued to it carries the resource as its audience.
      { ...client(resource, scopes), client_secret: 'secret-id' },
    ],
    scopes: ['openid', ...scopes.split(' ')],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, indicator, c) => ({
          scope: scopes,
          audience: indicator,
          accessTokenFormat: 'jwt',
          accessTokenTTL: c.clientId === 'warden-short' ? 2 : 600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  provider.use(async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.path === '/test/id_token') {
      const c = await provider.Client.find(resource);
      const token = new provider.IdToken({ sub: ctx.query.sub || 'alice' }, { client: c, ctx });
      token.set('iat', Math.floor(Date.now() / 1000));
      token.set('sub', ctx.query.sub || 'alice');
      ctx.body = await token.issue({ use: 'idtoken' });
      ctx.type = 'text/plain';
      return;
    }
    await next();
  });
  server.on('request', provider.callback());
  return issuer;
}

const a = await start();
const b = await start();
console.log(`issuer A ${a}`);
console.log(`issuer B ${b}`);
