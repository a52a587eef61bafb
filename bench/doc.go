// Package bench is Zaxy's benchmark harness; `zaxy bench` only parses flags and calls it.
//
// Retrieval on public long-term-memory benchmarks (LongMemEval, LoCoMo), with no LLM in the
// loop: it loads a benchmark file into cases, appends each case's haystack turns as message
// events into a fresh space, asks every question through a Retriever (the retrieval checkout
// uses, NewCheckoutRetriever), writes the ranked, cited events per question as JSON lines with
// their benchmark ids, and scores them against the labelled evidence (recall_any@k,
// recall_all@k and NDCG@k at session and turn level, evidence inside a token-budgeted packet,
// tokens per packet, latency). RunDataset does all of it and writes the files.
//
// Calibration: FoKFit refits the feeling of knowing's mapping from the ranked.jsonl files and
// cross-validates it (in memory, no database).
//
// The loop lanes: Loop runs scripted agents over repeated task families with memory off and
// on, through the append path, the prospective pass, the memory actions and the workers'
// entry points, and reports task success, calls, repeated failures, recovery and the
// calibration of memory's confidence.
//
// Throughput and latency: Append times appends (HTTP, the Go API, the bare INSERT chained and
// unchained, verify) and Checkout times checkouts on a space of many memories, each in a
// scratch database it creates beside the one it is given.
//
// It only ever appends to spaces it creates for itself and to scratch databases it creates
// (or that an earlier Checkout run kept); it must never write to an existing space, and it
// must never feed the benchmark's labels (evidence, answers) to the Retriever.
package bench
