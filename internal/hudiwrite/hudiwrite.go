// Package hudiwrite writes Hudi log files for tests: blocks framed as the
// Hudi log format (version 1) lays them out, with Avro data, delete and
// rollback command blocks. It is the writer side of formats/hudilog,
// written from the format's description, not from Hudi's code.
package hudiwrite

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/hamba/avro/v2"
)

// Block is a block to write. Type and header keys are the ordinals of
// formats/hudilog.
type Block struct {
	Type    int32
	Header  map[int32]string
	Footer  map[int32]string
	Content []byte
}

// The header keys and block types used here.
const (
	keyInstant     = 0
	keyTarget      = 1
	keySchema      = 2
	keyCommandType = 3

	typeCommand = 0
	typeDelete  = 1
	typeAvro    = 3
	typeParquet = 5
)

// AvroData returns an Avro data block written by instant whose records are
// encoded (hamba/avro) in the Avro schema schemaJSON.
func AvroData(instant, schemaJSON string, records []map[string]any) (Block, error) {
	s, err := avro.Parse(schemaJSON)
	if err != nil {
		return Block{}, err
	}
	content := binary.BigEndian.AppendUint32(nil, 3)
	content = binary.BigEndian.AppendUint32(content, uint32(len(records)))
	for i, r := range records {
		b, err := avro.Marshal(s, r)
		if err != nil {
			return Block{}, fmt.Errorf("record %d: %w", i, err)
		}
		content = binary.BigEndian.AppendUint32(content, uint32(len(b)))
		content = append(content, b...)
	}
	return Block{Type: typeAvro, Header: map[int32]string{keyInstant: instant, keySchema: schemaJSON}, Content: content}, nil
}

// ParquetData returns a Parquet data block written by instant holding the
// Parquet file file, whose Avro schema is schemaJSON.
func ParquetData(instant, schemaJSON string, file []byte) Block {
	return Block{Type: typeParquet, Header: map[int32]string{keyInstant: instant, keySchema: schemaJSON}, Content: file}
}

// Delete is one record of a delete block. Ordering is nil, an int32, an
// int64 or a string.
type Delete struct {
	Key, Partition string
	Ordering       any
}

// DeleteBlock returns a delete block (version 3) written by instant.
func DeleteBlock(instant string, deletes []Delete) (Block, error) {
	var data []byte
	if len(deletes) > 0 {
		data = appendLong(data, int64(len(deletes)))
		for _, d := range deletes {
			data = appendLong(data, 1)
			data = appendString(data, d.Key)
			data = appendLong(data, 1)
			data = appendString(data, d.Partition)
			switch v := d.Ordering.(type) {
			case nil:
				data = appendLong(data, 0)
			case int32:
				data = appendLong(appendLong(data, 2), int64(v))
			case int64:
				data = appendLong(appendLong(data, 3), v)
			case string:
				data = appendString(appendLong(data, 7), v)
			default:
				return Block{}, fmt.Errorf("ordering value %T", v)
			}
		}
	}
	data = appendLong(data, 0)
	content := binary.BigEndian.AppendUint32(nil, 3)
	content = binary.BigEndian.AppendUint32(content, uint32(len(data)))
	content = append(content, data...)
	return Block{Type: typeDelete, Header: map[int32]string{keyInstant: instant}, Content: content}, nil
}

// Rollback returns a command block written by instant that rolls back the
// blocks of target.
func Rollback(instant, target string) Block {
	return Block{Type: typeCommand, Header: map[int32]string{keyInstant: instant, keyTarget: target, keyCommandType: "0"}}
}

// Encode frames blocks as a log file.
func Encode(blocks ...Block) []byte {
	var out []byte
	for _, b := range blocks {
		out = append(out, EncodeBlock(b)...)
	}
	return out
}

// EncodeBlock frames one block: magic, size, version 1, type, header,
// content size, content, footer, reverse pointer.
func EncodeBlock(b Block) []byte {
	var body []byte
	body = binary.BigEndian.AppendUint32(body, 1)
	body = binary.BigEndian.AppendUint32(body, uint32(b.Type))
	body = appendMeta(body, b.Header)
	body = binary.BigEndian.AppendUint64(body, uint64(len(b.Content)))
	body = append(body, b.Content...)
	body = appendMeta(body, b.Footer)
	size := len(body) + 8
	out := append([]byte("#HUDI#"), binary.BigEndian.AppendUint64(nil, uint64(size))...)
	out = append(out, body...)
	return binary.BigEndian.AppendUint64(out, uint64(6+8+size-8))
}

func appendMeta(b []byte, m map[int32]string) []byte {
	keys := make([]int32, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	b = binary.BigEndian.AppendUint32(b, uint32(len(keys)))
	for _, k := range keys {
		b = binary.BigEndian.AppendUint32(b, uint32(k))
		b = binary.BigEndian.AppendUint32(b, uint32(len(m[k])))
		b = append(b, m[k]...)
	}
	return b
}

func appendLong(b []byte, v int64) []byte {
	return binary.AppendUvarint(b, uint64(v<<1)^uint64(v>>63))
}

func appendString(b []byte, s string) []byte {
	return append(appendLong(b, int64(len(s))), s...)
}
