package storage

import "testing"

// TestParentDir: a relative name without a slash has the current folder as
// parent (it was "", which turned off re-rooting a table opened as
// "metadata/v1.metadata.json").
func TestParentDir(t *testing.T) {
	for p, want := range map[string]string{
		"metadata/v1.metadata.json": "metadata",
		"metadata":                  ".",
		"metadata/":                 ".",
		"/t/metadata":               "/t",
		"/t":                        "/",
		"s3://b/t/metadata":         "s3://b/t",
		"":                          "",
	} {
		if got := ParentDir(p); got != want {
			t.Errorf("ParentDir(%q) = %q, want %q", p, got, want)
		}
	}
}
