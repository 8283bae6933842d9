package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// build assembles the Arrow data of one projected node for the current
// batch from the levels and values its leaf readers collected.
func (br *BatchReader) build(sn *selNode) (arrow.ArrayData, error) {
	ln := sn.ln
	if sn.leaf != nil {
		return br.buildLeaf(sn)
	}
	ref := sn.ref
	def, rep := ref.bdef, ref.brep
	if ref.maxRep == 0 {
		rep = nil
	}
	var n, nulls int
	var bm, offs *memory.Buffer
	var cnt int
	switch {
	case sn.dtype.ID() == arrow.LIST || sn.dtype.ID() == arrow.MAP:
		n, nulls, bm, offs, cnt = listSlots(br.mem, def, rep, ln.r, ln.p, ln.d, ln.er, ln.e)
		defer offs.Release()
	case ref.maxDef == 0:
		n = ref.entries
	default:
		n, nulls, bm = slotValidity(br.mem, def, rep, ln.r, ln.p, ln.d)
	}
	defer releaseBuf(bm)
	switch sn.dtype.ID() {
	case arrow.STRUCT:
		children := make([]arrow.ArrayData, 0, len(sn.children))
		defer func() {
			for _, c := range children {
				c.Release()
			}
		}()
		for _, c := range sn.children {
			cd, err := br.build(c)
			if err != nil {
				return nil, err
			}
			children = append(children, cd)
			if cd.Len() != n {
				return nil, corruptf(br.f.name, -1, "data", "field %q has %d values, its struct %d", c.ln.field.Name, cd.Len(), n)
			}
		}
		return array.NewData(sn.dtype, n, []*memory.Buffer{bm}, children, nulls, 0), nil
	case arrow.LIST, arrow.MAP:
		var child arrow.ArrayData
		if sn.dtype.ID() == arrow.LIST {
			cd, err := br.build(sn.children[0])
			if err != nil {
				return nil, err
			}
			child = cd
		} else {
			kd, err := br.build(sn.children[0])
			if err != nil {
				return nil, err
			}
			defer kd.Release()
			if kd.NullN() > 0 {
				return nil, corruptf(br.f.name, -1, "data", "map %q has a null key", ln.field.Name)
			}
			vd, err := br.build(sn.children[1])
			if err != nil {
				return nil, err
			}
			defer vd.Release()
			if vd.Len() != kd.Len() {
				return nil, corruptf(br.f.name, -1, "data", "map %q has %d keys and %d values", ln.field.Name, kd.Len(), vd.Len())
			}
			st := sn.dtype.(*arrow.MapType).Elem()
			child = array.NewData(st, kd.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{kd, vd}, 0, 0)
		}
		defer child.Release()
		if child.Len() != cnt {
			return nil, corruptf(br.f.name, -1, "data", "%q has %d elements, its offsets say %d", ln.field.Name, child.Len(), cnt)
		}
		return array.NewData(sn.dtype, n, []*memory.Buffer{bm, offs}, []arrow.ArrayData{child}, nulls, 0), nil
	}
	return nil, fmt.Errorf("parquet: cannot assemble %s", sn.dtype)
}

func releaseBuf(b *memory.Buffer) {
	if b != nil {
		b.Release()
	}
}

// buildLeaf turns a leaf's dense values into an Arrow array of its slots.
func (br *BatchReader) buildLeaf(sn *selNode) (arrow.ArrayData, error) {
	lr := sn.leaf
	ln := sn.ln
	var n, nulls int
	var bm *memory.Buffer
	flat := lr.maxRep == 0 && lr.maxDef > 0
	switch {
	case lr.maxDef == 0:
		n = lr.entries
	case flat:
		// Values and validity were placed while reading.
		n, nulls = lr.entries, lr.nulls
		if nulls > 0 {
			lr.fillValid(n)
			bm = lr.valid.take()
			bm.ResizeNoShrink(int(bitutil.BytesForBits(int64(n))))
		}
	default:
		rep := lr.brep
		if lr.maxRep == 0 {
			rep = nil
		}
		n, nulls, bm = slotValidity(br.mem, lr.bdef, rep, ln.r, ln.p, ln.d)
	}
	defer releaseBuf(bm)
	if n-nulls != lr.nvals {
		return nil, lr.corrupt("%d values for %d non-null slots", lr.nvals, n-nulls)
	}
	var bits []byte
	if bm != nil {
		bits = bm.Bytes()
	}
	c := lr.conv
	switch {
	case c.op == opBool:
		out := newBitmap(br.mem, n)
		defer out.Release()
		ob := out.Bytes()
		dense := lr.fixed.b.Bytes()[:lr.fixed.n]
		if flat {
			for s := 0; s < n; s++ {
				if dense[s] != 0 {
					bitutil.SetBit(ob, s)
				}
			}
		} else {
			k := 0
			for s := 0; s < n; s++ {
				if bits == nil || bitutil.BitIsSet(bits, s) {
					if dense[k] != 0 {
						bitutil.SetBit(ob, s)
					}
					k++
				}
			}
		}
		return array.NewData(sn.dtype, n, []*memory.Buffer{bm, out}, nil, nulls, 0), nil
	case c.variable():
		offs := lr.voffs.take()
		defer offs.Release()
		data := lr.vdata.take()
		defer data.Release()
		lr.hint[0], lr.hint[1] = offs.Len(), data.Len()
		if nulls > 0 && !flat {
			offs.Resize(4 * (n + 1))
			spreadOffsets(arrow.Int32Traits.CastFromBytes(offs.Bytes()), bits, n, lr.nvals)
		}
		return array.NewData(sn.dtype, n, []*memory.Buffer{bm, offs, data}, nil, nulls, 0), nil
	default:
		vals := lr.fixed.take()
		defer vals.Release()
		lr.hint[2] = vals.Len()
		if nulls > 0 && !flat {
			vals.Resize(c.width * n)
			spreadFixed(vals.Bytes(), bits, c.width, n, lr.nvals)
		}
		return array.NewData(sn.dtype, n, []*memory.Buffer{bm, vals}, nil, nulls, 0), nil
	}
}
