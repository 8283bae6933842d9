package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lakecat/lakecat/schema"
)

// The generated Paimon table is an append table without buckets (bucket =
// -1, files in bucket-0/) holding the same rows in 9 Parquet files, 3 under
// each of schema-0, schema-1 and schema-2 (the three schemas of the Iceberg
// table, with the same field ids). One snapshot; its delta manifest list
// names one manifest per schema (Paimon docs, "Specification": snapshot,
// manifest list and manifest files in Avro).

const paimonManifestListSchema = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[
 {"name":"_VERSION","type":"int"},
 {"name":"_FILE_NAME","type":"string"},
 {"name":"_FILE_SIZE","type":"long"},
 {"name":"_NUM_ADDED_FILES","type":"long"},
 {"name":"_NUM_DELETED_FILES","type":"long"},
 {"name":"_SCHEMA_ID","type":"long"}]}`

const paimonManifestSchema = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[
 {"name":"_VERSION","type":"int"},
 {"name":"_KIND","type":"int"},
 {"name":"_PARTITION","type":"bytes"},
 {"name":"_BUCKET","type":"int"},
 {"name":"_TOTAL_BUCKETS","type":"int"},
 {"name":"_FILE","type":{"type":"record","name":"record__FILE","fields":[
  {"name":"_FILE_NAME","type":"string"},
  {"name":"_FILE_SIZE","type":"long"},
  {"name":"_ROW_COUNT","type":"long"},
  {"name":"_MIN_SEQUENCE_NUMBER","type":"long"},
  {"name":"_MAX_SEQUENCE_NUMBER","type":"long"},
  {"name":"_SCHEMA_ID","type":"long"},
  {"name":"_LEVEL","type":"int"},
  {"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},
  {"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null}]}}]}`

// emptyBinaryRow is Paimon's serialized BinaryRow of arity 0 (the partition
// of an unpartitioned table): a 4-byte arity and one 8-byte null bit set.
var emptyBinaryRow = make([]byte, 12)

func writePaimonTable(dir string, ds *dataset, rowGroup int) error {
	for _, d := range []string{"schema", "snapshot", "manifest", "bucket-0"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	schemas := icebergSchemas()
	opts := map[string]string{"bucket": "-1", "file.format": "parquet"}
	for id, s := range schemas {
		b, err := schema.MarshalPaimonSchema(schema.NewPaimonSchema(id, s.Fields, nil, nil, opts))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "schema", schema.PaimonSchemaFileName(id)), b, 0o644); err != nil {
			return err
		}
	}
	const filesPerSchema = 3
	nFiles := filesPerSchema * len(schemas)
	per := (ds.n + nFiles - 1) / nFiles
	var lists []map[string]any
	seq := int64(0)
	for v := range schemas {
		var entries []map[string]any
		for k := 0; k < filesPerSchema; k++ {
			idx := v*filesPerSchema + k
			lo, hi := min(ds.n, idx*per), min(ds.n, (idx+1)*per)
			part := ds.slice(lo, hi)
			name := fmt.Sprintf("data-00000000-0000-0000-0000-%012d-0.parquet", idx)
			size, err := writeVersion(filepath.Join(dir, "bucket-0", name), v, part, lo, rowGroup)
			if err != nil {
				return err
			}
			entries = append(entries, map[string]any{
				"_VERSION": 2, "_KIND": 0, "_PARTITION": emptyBinaryRow, "_BUCKET": 0, "_TOTAL_BUCKETS": -1,
				"_FILE": map[string]any{
					"_FILE_NAME": name, "_FILE_SIZE": size, "_ROW_COUNT": int64(part.n),
					"_MIN_SEQUENCE_NUMBER": seq, "_MAX_SEQUENCE_NUMBER": seq + int64(part.n) - 1,
					"_SCHEMA_ID": int64(v), "_LEVEL": 0, "_EXTRA_FILES": []string{}, "_DELETE_ROW_COUNT": nil,
				},
			})
			seq += int64(part.n)
		}
		mname := fmt.Sprintf("manifest-00000000-0000-0000-0000-%012d-0", v)
		size, err := writeOCF(filepath.Join(dir, "manifest", mname), paimonManifestSchema, nil, entries)
		if err != nil {
			return err
		}
		lists = append(lists, map[string]any{"_VERSION": 2, "_FILE_NAME": mname, "_FILE_SIZE": size,
			"_NUM_ADDED_FILES": int64(len(entries)), "_NUM_DELETED_FILES": int64(0), "_SCHEMA_ID": int64(v)})
	}
	if _, err := writeOCF(filepath.Join(dir, "manifest", "manifest-list-base-0"), paimonManifestListSchema, nil, nil); err != nil {
		return err
	}
	if _, err := writeOCF(filepath.Join(dir, "manifest", "manifest-list-delta-0"), paimonManifestListSchema, nil, lists); err != nil {
		return err
	}
	snap, err := json.Marshal(map[string]any{
		"version": 3, "id": 1, "schemaId": len(schemas) - 1,
		"baseManifestList": "manifest-list-base-0", "deltaManifestList": "manifest-list-delta-0",
		"changelogManifestList": nil, "commitUser": "lakebench", "commitIdentifier": 1,
		"commitKind": "APPEND", "timeMillis": 1_700_000_000_000, "totalRecordCount": ds.n, "deltaRecordCount": ds.n,
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "snapshot", "snapshot-1"), snap, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "snapshot", "EARLIEST"), []byte("1"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "snapshot", "LATEST"), []byte("1"), 0o644)
}
