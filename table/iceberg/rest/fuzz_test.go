package rest_test

import (
	"os"
	"testing"

	"github.com/lakecat/lakecat/table/iceberg/rest"
)

// FuzzDecodeLoadTableResult: a LoadTableResult body from a server is
// untrusted input; decoding it never panics.
func FuzzDecodeLoadTableResult(f *testing.F) {
	md, err := os.ReadFile("../../../testdata/orders/metadata/v1.metadata.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"metadata-location":"s3://b/m.json","metadata":` + string(md) + `,"config":{"k":"v"},"storage-credentials":[{"prefix":"s3://b/","config":{}}]}`))
	f.Add([]byte(`{"metadata":null}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := rest.DecodeLoadTableResult(body)
		if err == nil && r.Metadata == nil {
			t.Fatal("no error and no metadata")
		}
		rest.DecodeCommitTableResponse(body)
	})
}
