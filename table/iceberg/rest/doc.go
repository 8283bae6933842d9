// Package rest is a client of the Iceberg REST catalog: the HTTP API
// specified by the Iceberg project's OpenAPI document
// (open-api/rest-catalog-open-api.yaml, "Apache Iceberg REST Catalog API").
//
// [New] authenticates (a static bearer token, or the OAuth2 client
// credentials flow against /v1/oauth/tokens) and reads the catalog
// configuration from GET /v1/config (defaults, then the client's
// properties, then overrides; the "prefix" property names the {prefix}
// path segment of every catalog route). [Client.LoadTable] returns a
// table's metadata location, its metadata and the table configuration,
// storage credentials included; [Client.ListNamespaces] and
// [Client.ListTables] list identifiers; [Client.CommitTable] sends one
// CommitTableRequest (requirements and updates), and [Client.UpdateTable]
// loads, builds and commits again on a 409 CommitFailed response, as Iceberg
// Java's catalog does.
//
// Requests that change nothing (GET, the token request) are retried on 429
// and 5xx responses and on transport errors, with exponential backoff. A
// commit is retried on 429, and on 503 only when the server sends
// Retry-After (the spec's rule for requests that are not idempotent); a
// commit answered with 500, 502 or 504 or cut off in flight returns
// [ErrCommitStateUnknown], because the spec says its state is unknown.
// When the server's configuration announces idempotency-key-lifetime, each
// commit carries an Idempotency-Key (a UUIDv7) and is retried with the same
// key after a 5xx or a transport error too: the server then applies it at
// most once.
//
// Errors returned for HTTP statuses are [*Error] values that match one of
// the package's sentinels ([ErrNotFound], [ErrUnauthorized], [ErrForbidden],
// [ErrCommitFailed], …) under errors.Is. Credentials (the token, the client
// secret, storage credentials) never appear in an error or in the printed
// form of a value of this package.
package rest
