#include "HostileModels.h"

#include <torch/script.h>

namespace alignscope::tests {

void addFormat1Attributes(torch::jit::Module& m, const std::vector<std::string>& vocabulary) {
    c10::List<std::string> vocab(vocabulary);
    m.register_attribute("format_version", c10::IntType::get(), int64_t{1});
    const char* names[] = {"pad_id", "unk_id", "bos_id", "eos_id"};
    for (int64_t i = 0; i < 4; ++i) m.register_attribute(names[i], c10::IntType::get(), i);
    m.register_attribute("src_vocab", c10::ListType::ofStrings(), vocab);
    m.register_attribute("tgt_vocab", c10::ListType::ofStrings(), vocab.copy());
    m.register_attribute("src_tokenizer", c10::StringType::get(), std::string("{}"));
    m.register_attribute("tgt_tokenizer", c10::StringType::get(), std::string("{}"));
    m.register_attribute("metadata", c10::StringType::get(), std::string("{}"));
}

std::string writeHostileModel(const std::string& path, Misbehaviour misbehaviour, const std::string& metadata) {
    torch::jit::Module m("__torch__.Hostile");
    addFormat1Attributes(m, {"<pad>", "<unk>", "<s>", "</s>", "a", "b", "c", "d"});
    m.setattr("metadata", metadata);
    m.register_attribute("misbehaviour", c10::IntType::get(), static_cast<int64_t>(misbehaviour));
    // The state counts steps (its first value); the next token is always "a", then </s> at step 6.
    m.define(R"(
def encode(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    B = src.size(0)
    S = src.size(1)
    if (self.misbehaviour == 4 and S > 3) or self.misbehaviour == 5:
        i = 0
        while i < 1000000000000:
            i = i + 1
    mask = torch.arange(S).unsqueeze(0) < src_len.unsqueeze(1)
    enc = torch.ones([B, S, 4]) * mask.unsqueeze(2).float()
    return enc, torch.zeros([B, 3]), mask, enc

def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
    B = y_prev.size(0)
    t = int(state[0, 0].item()) + 1
    if self.misbehaviour == 2:
        assert t < 2, "step " + str(t) + " is not allowed"
    if self.misbehaviour == 6 and enc.size(1) > 3:
        i = 0
        while i < 2000000:
            i = i + 1
    if self.misbehaviour == 3 and t >= 2:
        i = 0
        while i < 1000000000000:
            i = i + 1
    logits = torch.zeros([B, 8])
    logits[:, 4] = 5.0
    if t >= 6:
        logits[:, 3] = 10.0
    log_probs = torch.log_softmax(logits, 1)
    if self.misbehaviour == 1 and t >= 3:
        log_probs = log_probs * float("nan")
    alpha = mask.float() / mask.float().sum(1, keepdim=True)
    context = (alpha.unsqueeze(2) * enc).sum(1)
    return {"log_probs": log_probs, "state": state + 1.0, "alpha": alpha, "context": context}
)");
    m.save(path);
    return path;
}

}  // namespace alignscope::tests
