package rest_test

import (
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/table/iceberg/rest"
)

// TestSentinels pins each sentinel's class and text.
func TestSentinels(t *testing.T) {
	cases := []struct {
		err   error
		class error
		text  string
	}{
		{rest.ErrNotFound, lakecat.ErrNotFound, "rest: not found"},
		{rest.ErrUnsupported, lakecat.ErrUnsupported, "rest: operation not supported by the catalog"},
		{rest.ErrInvalidResponse, lakecat.ErrCorrupt, "rest: invalid response"},
		{rest.ErrUnauthorized, lakecat.ErrPermission, "rest: authentication failed"},
		{rest.ErrForbidden, lakecat.ErrPermission, "rest: permission denied"},
		{rest.ErrCommitFailed, lakecat.ErrConflict, "rest: commit failed: requirements not met"},
		{rest.ErrCommitStateUnknown, lakecat.ErrConflict, "rest: commit state unknown"},
		{rest.ErrConflict, lakecat.ErrConflict, "rest: conflict"},
		{rest.ErrBadRequest, lakecat.ErrInvalidArgument, "rest: bad request"},
		{rest.ErrUnavailable, lakecat.ErrUnavailable, "rest: catalog unavailable"},
	}
	for _, c := range cases {
		if got := lakecat.ClassOf(c.err); got != c.class {
			t.Errorf("%q: class %v, want %v", c.err, got, c.class)
		}
		if c.err.Error() != c.text {
			t.Errorf("text %q, want %q", c.err, c.text)
		}
	}
}
