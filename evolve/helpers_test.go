package evolve

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/realdata"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table/paimon"
)

// opt returns an optional field; req a required one.
func opt(id int, name string, t schema.Type) *schema.Field {
	return &schema.Field{ID: id, Name: name, Type: t}
}

func req(id int, name string, t schema.Type) *schema.Field {
	return &schema.Field{ID: id, Name: name, Type: t, Required: true}
}

func st(fields ...*schema.Field) *schema.StructType { return &schema.StructType{Fields: fields} }

// mustApply applies u and checks the exact result and last-column-id.
func mustApply(t *testing.T, u *UpdateSchema, base *schema.Schema, last int, want *schema.Schema, wantLast int) {
	t.Helper()
	got, gotLast, err := u.Apply(base, last)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if !got.Equal(want) || got.ID != want.ID {
		t.Fatalf("Apply schema:\n got %v (id %d)\nwant %v (id %d)", got, got.ID, want, want.ID)
	}
	if gotLast != wantLast {
		t.Fatalf("Apply last-column-id = %d, want %d", gotLast, wantLast)
	}
}

// mustFail applies u and checks that it fails with exactly the given
// errors, each as "<sentinel>|<path>".
func mustFail(t *testing.T, u *UpdateSchema, base *schema.Schema, last int, want ...string) {
	t.Helper()
	got, _, err := u.Apply(base, last)
	if err == nil {
		t.Fatalf("Apply succeeded with %v, want errors %v", got, want)
	}
	var parts []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		parts = j.Unwrap()
	} else {
		parts = []error{err}
	}
	if len(parts) != len(want) {
		t.Fatalf("Apply: %d errors, want %d: %v", len(parts), len(want), err)
	}
	for i, p := range parts {
		var ce *ChangeError
		if !errors.As(p, &ce) {
			t.Fatalf("error %d is %T, not *ChangeError: %v", i, p, p)
		}
		sentinel, path, _ := strings.Cut(want[i], "|")
		if ce.Err.Error() != sentinel || ce.Path != path {
			t.Fatalf("error %d = %q (sentinel %q, path %q), want sentinel %q path %q", i, p, ce.Err, ce.Path, sentinel, path)
		}
		if !errors.Is(err, ce.Err) {
			t.Fatalf("errors.Is(err, %v) = false", ce.Err)
		}
	}
	if got != nil {
		t.Fatalf("Apply returned a schema with an error")
	}
}

// base1 is id#1 long required, data#2 string, ts#3 timestamp.
func base1() *schema.Schema {
	return schema.New(0,
		req(1, "id", schema.Long),
		opt(2, "data", schema.String),
		opt(3, "ts", schema.Timestamp))
}

// realDir returns the real test data folder (see package
// internal/realdata), skipping the test when it is absent (failing when
// CI=true).
func realDir(t testing.TB) string {
	t.Helper()
	return realdata.Require(t)
}

// paimonTable is the latest schema of a Paimon table, as a test reloads it
// after a commit.
type paimonTable struct{ Schema *schema.PaimonSchema }

func loadPaimon(dir string) (*paimonTable, error) {
	t, err := paimon.Open(context.Background(), storage.OSFS{}, dir, "")
	if err != nil {
		return nil, err
	}
	s, err := t.LatestSchema(context.Background(), "")
	if err != nil {
		return nil, err
	}
	return &paimonTable{Schema: s}, nil
}
