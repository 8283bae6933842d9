package schema

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// addRealNameMappings adds as seeds the name mappings
// (schema.name-mapping.default) of the real Iceberg table metadata files,
// read in place when present.
func addRealNameMappings(f *testing.F) {
	addRealSeeds(f, func(p string, b []byte) bool {
		if !strings.HasSuffix(p, ".metadata.json") || !bytes.Contains(b, []byte("schema.name-mapping.default")) {
			return false
		}
		var md struct {
			Properties map[string]string `json:"properties"`
		}
		if json.Unmarshal(b, &md) != nil || md.Properties["schema.name-mapping.default"] == "" {
			return false
		}
		f.Add([]byte(md.Properties["schema.name-mapping.default"]))
		return false // the metadata file itself is not a seed
	}, 1000)
}
