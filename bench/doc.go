// Package bench measures Zaxy's retrieval on public long-term-memory benchmarks (LongMemEval,
// LoCoMo) with no LLM in the loop: it loads a benchmark file into cases, appends each case's
// haystack turns as message events into a fresh space, asks every question through a
// Retriever (the retrieval checkout uses), writes the ranked, cited events per question as
// JSON lines with their benchmark ids, and scores them against the labelled evidence
// (recall_any@k, recall_all@k and NDCG@k at session and turn level, evidence inside a
// token-budgeted packet, tokens per packet, latency).
//
// It only ever appends to spaces it creates for itself; it must never write to an existing
// space, and it must never feed the benchmark's labels (evidence, answers) to the Retriever.
package bench
