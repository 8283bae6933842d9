package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// dataset is the generated table data in columnar form: six columns with
// field ids 1–6, about 10% nulls each. Null slots hold zero values.
type dataset struct {
	n     int
	valid [6][]bool
	i     []int32
	l     []int64
	f     []float32
	d     []float64
	s     []string
	dec   []int64 // unscaled decimal(18, 2)
}

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett-kilo-lima"}

// generate returns n rows drawn from a fixed seed: the same n always gives
// the same rows.
func generate(n int, seed uint64) *dataset {
	rng := rand.New(rand.NewPCG(seed, 0x1acecafe))
	ds := &dataset{n: n, i: make([]int32, n), l: make([]int64, n), f: make([]float32, n),
		d: make([]float64, n), s: make([]string, n), dec: make([]int64, n)}
	for c := range ds.valid {
		ds.valid[c] = make([]bool, n)
	}
	for r := 0; r < n; r++ {
		for c := range ds.valid {
			ds.valid[c][r] = rng.IntN(10) != 0
		}
		if ds.valid[0][r] {
			ds.i[r] = rng.Int32()
		}
		if ds.valid[1][r] {
			ds.l[r] = rng.Int64()
		}
		if ds.valid[2][r] {
			ds.f[r] = rng.Float32()
		}
		if ds.valid[3][r] {
			ds.d[r] = rng.Float64()
		}
		if ds.valid[4][r] {
			ds.s[r] = fmt.Sprintf("%s-%d", words[rng.IntN(len(words))], rng.IntN(100000))
		}
		if ds.valid[5][r] {
			ds.dec[r] = rng.Int64N(1_000_000_000_000) - 500_000_000_000
		}
	}
	return ds
}

// slice returns rows [lo, hi) sharing the backing arrays.
func (ds *dataset) slice(lo, hi int) *dataset {
	out := &dataset{n: hi - lo, i: ds.i[lo:hi], l: ds.l[lo:hi], f: ds.f[lo:hi], d: ds.d[lo:hi], s: ds.s[lo:hi], dec: ds.dec[lo:hi]}
	for c := range ds.valid {
		out.valid[c] = ds.valid[c][lo:hi]
	}
	return out
}

// pqRow is one row of the Parquet file; the id(N) tags write the Parquet
// field_id of each column (Iceberg field ids 1–6).
type pqRow struct {
	I   *int32   `parquet:"i,optional,id(1)"`
	L   *int64   `parquet:"l,optional,id(2)"`
	F   *float32 `parquet:"f,optional,id(3)"`
	D   *float64 `parquet:"d,optional,id(4)"`
	S   *string  `parquet:"s,optional,id(5)"`
	Dec *int64   `parquet:"dec,optional,id(6),decimal(2:18)"`
}

func codecOf(name string) compress.Codec {
	switch name {
	case "zstd":
		return &zstd.Codec{Level: zstd.SpeedDefault}
	default:
		return &snappy.Codec{}
	}
}

// writeParquet writes ds as one Parquet file with row groups of at most
// rowGroup rows, compressed with codec ("snappy" or "zstd").
func writeParquet(ds *dataset, codec string, rowGroup int) ([]byte, error) {
	var buf bytes.Buffer
	w := pq.NewGenericWriter[pqRow](&buf, pq.Compression(codecOf(codec)),
		pq.MaxRowsPerRowGroup(int64(rowGroup)), pq.PageBufferSize(1<<20))
	rows := make([]pqRow, 0, 4096)
	vals := make([]struct {
		i   int32
		l   int64
		f   float32
		d   float64
		s   string
		dec int64
	}, 4096)
	flush := func() error {
		_, err := w.Write(rows)
		rows = rows[:0]
		return err
	}
	for r := 0; r < ds.n; r++ {
		v := &vals[len(rows)]
		var row pqRow
		if ds.valid[0][r] {
			v.i = ds.i[r]
			row.I = &v.i
		}
		if ds.valid[1][r] {
			v.l = ds.l[r]
			row.L = &v.l
		}
		if ds.valid[2][r] {
			v.f = ds.f[r]
			row.F = &v.f
		}
		if ds.valid[3][r] {
			v.d = ds.d[r]
			row.D = &v.d
		}
		if ds.valid[4][r] {
			v.s = ds.s[r]
			row.S = &v.s
		}
		if ds.valid[5][r] {
			v.dec = ds.dec[r]
			row.Dec = &v.dec
		}
		rows = append(rows, row)
		if len(rows) == cap(rows) {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
