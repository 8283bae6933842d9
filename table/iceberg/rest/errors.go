package rest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat"
)

// The sentinels an [*Error] matches, one per kind of response
// (IcebergErrorResponse and the status codes of the OpenAPI document).
var (
	// ErrNotFound: 404, a namespace or table that does not exist
	// (NoSuchNamespaceException, NoSuchTableException).
	ErrNotFound = lakecat.NewSentinel(lakecat.ErrNotFound, "rest: not found")
	// ErrUnauthorized: 401 or 419, or a failed OAuth2 token request: the
	// catalog did not accept the credentials (missing, wrong or expired).
	ErrUnauthorized = lakecat.NewSentinel(lakecat.ErrPermission, "rest: authentication failed")
	// ErrForbidden: 403, the credentials are valid but lack the permission.
	ErrForbidden = lakecat.NewSentinel(lakecat.ErrPermission, "rest: permission denied")
	// ErrCommitFailed: 409 on a commit, one or more requirements failed
	// (CommitFailedException); the table changed since it was loaded.
	ErrCommitFailed = lakecat.NewSentinel(lakecat.ErrConflict, "rest: commit failed: requirements not met")
	// ErrCommitStateUnknown: a commit answered with 500, 502, 504 or 503
	// without Retry-After, or cut off in flight. The commit may or may not
	// have been applied; load the table to find out.
	ErrCommitStateUnknown = lakecat.NewSentinel(lakecat.ErrConflict, "rest: commit state unknown")
	// ErrConflict: 409 on a request other than a commit (AlreadyExists,
	// NamespaceNotEmpty).
	ErrConflict = lakecat.NewSentinel(lakecat.ErrConflict, "rest: conflict")
	// ErrBadRequest: 400 or 422, the server rejected the request.
	ErrBadRequest = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "rest: bad request")
	// ErrUnsupported: 406, the server does not support the operation.
	ErrUnsupported = lakecat.NewSentinel(lakecat.ErrUnsupported, "rest: operation not supported by the catalog")
	// ErrUnavailable: 429 or 5xx after the last retry.
	ErrUnavailable = lakecat.NewSentinel(lakecat.ErrUnavailable, "rest: catalog unavailable")
	// ErrInvalidResponse: a response body that is not what the OpenAPI
	// document says (bad JSON, a missing required field, above
	// [MaxResponseBytes]).
	ErrInvalidResponse = lakecat.NewSentinel(lakecat.ErrCorrupt, "rest: invalid response")
)

// MaxResponseBytes caps the body of one response. Table metadata with a
// long snapshot history runs to tens of megabytes; a body above the cap is
// [ErrInvalidResponse].
const MaxResponseBytes = 256 << 20

// Error is a failed request to the catalog: an HTTP error response, or a
// transport failure after the last retry. It matches the sentinel of its
// status ([ErrNotFound], …) under errors.Is, and its cause, if any.
type Error struct {
	// Op is the request, "GET /v1/config" or "POST /v1/oauth/tokens"
	// (the path, never a query or a header).
	Op string
	// Status is the HTTP status code, 0 when no response came.
	Status int
	// Type and Message are the ErrorModel of the IcebergErrorResponse body
	// (for the token endpoint, the OAuthError's error and
	// error_description); empty when the body had none.
	Type, Message string
	// Kind is the sentinel the error matches.
	Kind error
	// Err is the transport error when no response came.
	Err error
}

func (e *Error) Error() string {
	s := "rest: " + e.Op + ": " + strings.TrimPrefix(e.Kind.Error(), "rest: ")
	if e.Status != 0 {
		status := strconv.Itoa(e.Status)
		if text := http.StatusText(e.Status); text != "" {
			status += " " + text
		}
		s += " (" + status + ")"
	}
	if e.Type != "" {
		s += ": " + e.Type
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the sentinel and the cause, so that
// errors.Is(err, ErrNotFound) holds.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// kindOf maps a status to its sentinel; commit says whether the request
// was a table commit (409 and 5xx mean something else there).
func kindOf(status int, commit bool) error {
	switch {
	case status == http.StatusNotFound:
		return ErrNotFound
	case status == http.StatusUnauthorized || status == 419:
		return ErrUnauthorized
	case status == http.StatusForbidden:
		return ErrForbidden
	case status == http.StatusConflict && commit:
		return ErrCommitFailed
	case status == http.StatusConflict:
		return ErrConflict
	case status == http.StatusNotAcceptable:
		return ErrUnsupported
	case commit && (status == 500 || status == 502 || status == 503 || status == 504):
		return ErrCommitStateUnknown
	case status == http.StatusTooManyRequests || status >= 500:
		return ErrUnavailable
	default:
		return ErrBadRequest
	}
}
