#include "core/text/ReplacePattern.h"

#include "core/Error.h"

#include <re2/re2.h>

namespace alignscope::core {
namespace {

// Why RE2 refused a pattern, said so the author knows what to change.
std::string whyRefused(const re2::RE2& re) {
    const std::string detail = re.error();
    switch (re.error_code()) {
    case re2::RE2::ErrorPatternTooLarge:
        return "needs more than " + std::to_string(ReplacePattern::kMaxMemory >> 20) +
               " MiB once compiled (use a smaller pattern, or several replace steps)";
    case re2::RE2::ErrorBadEscape:
    case re2::RE2::ErrorBadPerlOp:
    case re2::RE2::ErrorRepeatOp:
        return "is not a valid regular expression for RE2: " + detail +
               " (patterns run on RE2, in time linear in the line: backreferences and lookaround are not available)";
    default:
        return "is not a valid regular expression: " + detail;
    }
}

}  // namespace

ReplacePattern::ReplacePattern(const std::string& pattern, const std::string& content) : pattern_(pattern) {
    re2::RE2::Options options;
    options.set_max_mem(kMaxMemory);
    options.set_log_errors(false);
    re_ = std::make_unique<re2::RE2>(pattern, options);
    if (!re_->ok()) throw Error("normaliser pattern '" + pattern + "' " + whyRefused(*re_));
    const int groups = re_->NumberOfCapturingGroups();
    // The content's syntax is ECMAScript's (JavaScript's String.replace), which the format has
    // always documented: $n and $nn name groups (two digits when that many groups exist), $& the
    // whole match, $$ a dollar sign; any other $ is itself.
    auto literal = [&](const std::string& text) {
        if (content_.empty() || content_.back().group >= 0) content_.push_back({});
        content_.back().text += text;
    };
    for (size_t i = 0; i < content.size(); ++i) {
        const char c = content[i];
        const char next = i + 1 < content.size() ? content[i + 1] : '\0';
        if (c != '$' || next == '\0') {
            literal(std::string(1, c));
        } else if (next == '$') {
            literal("$");
            ++i;
        } else if (next == '&') {
            content_.push_back({"", 0});
            ++i;
        } else if (next == '`' || next == '\'') {
            throw Error("normaliser content '" + content + "' uses $" + next +
                        " (the text before or after the match), which is not supported: use groups");
        } else if (next >= '0' && next <= '9') {
            int group = next - '0';
            size_t used = 2;
            if (i + 2 < content.size() && content[i + 2] >= '0' && content[i + 2] <= '9' && group * 10 + (content[i + 2] - '0') <= groups) {
                group = group * 10 + (content[i + 2] - '0');
                used = 3;
            }
            if (group > groups)
                throw Error("normaliser content '" + content + "' refers to group " + std::to_string(group) + " but pattern '" + pattern +
                            "' has " + std::to_string(groups) + (groups == 1 ? " group" : " groups"));
            content_.push_back({"", group});
            i += used - 1;
        } else {
            literal("$");
        }
    }
}

ReplacePattern::~ReplacePattern() = default;

bool ReplacePattern::find(std::string_view text, size_t from, Groups& groups) const {
    if (from > text.size()) return false;
    const int n = 1 + re_->NumberOfCapturingGroups();
    std::vector<re2::StringPiece> found(static_cast<size_t>(n));
    if (!re_->Match(re2::StringPiece(text.data(), text.size()), from, text.size(), re2::RE2::UNANCHORED, found.data(), n)) return false;
    groups.assign(static_cast<size_t>(n), std::string_view());
    for (int k = 0; k < n; ++k)
        if (found[k].data()) groups[k] = std::string_view(found[k].data(), found[k].size());
    return true;
}

size_t ReplacePattern::replacementSize(const Groups& groups) const {
    size_t size = 0;
    for (const auto& part : content_) size += part.group >= 0 ? groups[part.group].size() : part.text.size();
    return size;
}

void ReplacePattern::appendReplacement(const Groups& groups, std::string& out) const {
    for (const auto& part : content_) {
        if (part.group >= 0) out.append(groups[part.group].data(), groups[part.group].size());
        else out += part.text;
    }
}

}  // namespace alignscope::core
