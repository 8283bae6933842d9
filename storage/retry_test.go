package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
)

var errPermanent = errors.New("permanent")

// TestIsTransient pins the default classification.
func TestIsTransient(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{storage.ErrTransient, true},
		{errPermanent, false},
		{context.Canceled, false},
		{lakecat.ErrNotFound, false},
		{httpErr(503), true},
		{httpErr(429), true},
		{httpErr(403), false},
		{httpErr(404), false},
	}
	for _, c := range cases {
		if got := storage.IsTransient(c.err); got != c.want {
			t.Errorf("IsTransient(%v) = %v", c.err, got)
		}
	}
}

type httpErr int

func (e httpErr) Error() string       { return "http status " + string(rune('0'+int(e)/100)) + "xx" }
func (e httpErr) HTTPStatusCode() int { return int(e) }
