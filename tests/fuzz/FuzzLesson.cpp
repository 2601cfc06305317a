// libFuzzer target: a lesson file's JSON and the markup of its pages' text, read as the app reads
// them before it looks at any file a page names (core::LessonFormat, core::LessonMarkup). What is
// accepted must be within the limits and render to HTML the markup parses back to the same
// tree; nothing may crash, hang or allocate without bound.
#include "core/Error.h"
#include "core/lesson/LessonFormat.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using alignscope::core::LessonFormat;
using alignscope::core::LessonMarkup;

namespace {

bool same(const LessonMarkup::Node& a, const LessonMarkup::Node& b) {
    if (a.kind != b.kind || a.text != b.text || a.children.size() != b.children.size()) return false;
    for (size_t i = 0; i < a.children.size(); ++i)
        if (!same(a.children[i], b.children[i])) return false;
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const LessonFormat::Names names{{"query", "softmax", "attribution"}, {"occlusion", "grad-x-input"}};
    LessonFormat::Lesson lesson;
    try {
        lesson = LessonFormat::parse(bytes, "fuzz.json", names);
    } catch (const alignscope::core::Error&) {
        // Bytes that are not a lesson: still run them through the markup alone.
        try {
            LessonMarkup::parse(bytes);
        } catch (const alignscope::core::Error&) {
        }
        return 0;
    }
    if (lesson.pages.empty() || lesson.title.empty()) std::abort();
    for (const auto& page : lesson.pages) {
        if (page.text.size() > LessonMarkup::kMaxBytes || page.source.empty()) std::abort();
        if (page.steps < 0 || page.steps > LessonFormat::kMaxSteps || page.beam < 0 || page.beam > LessonFormat::kMaxBeam) std::abort();
        if (page.snapshot > 0 && page.timeline.empty()) std::abort();
        // The HTML written for an accepted page is itself in the markup (pictures keep their paths).
        const std::string html = LessonMarkup::toHtml(page.markup, [](const std::string& path) { return path; });
        try {
            if (!same(LessonMarkup::parse(html), page.markup)) std::abort();
        } catch (const alignscope::core::Error&) {
            std::abort();
        }
    }
    return 0;
}
