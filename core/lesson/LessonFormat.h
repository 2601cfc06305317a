#pragma once
#include "core/lesson/LessonMarkup.h"

#include <map>
#include <string>
#include <vector>

namespace alignscope::core {

// A lesson file's JSON (docs/lessons.md), checked whole: every key known, every value of its
// type and range (a "5" or 1e12 where a whole number goes is refused, not defaulted), every text
// in the lesson markup, every reference well formed. Whether the files it references exist, and
// what they hold, is the app's check (ui/Lesson.cpp). Qt- and Torch-free: the HTML lesson export
// and a fuzz target (tests/fuzz/FuzzLesson.cpp) read lessons through it too.
class LessonFormat {
public:
    static constexpr size_t kMaxFileBytes = 16 << 20;  // 100,000 short pages take 4 MiB
    static constexpr size_t kMaxSentenceCharacters = 1000;
    static constexpr size_t kMaxNameBytes = 1024;  // model, compare, timeline, image
    static constexpr int kMaxSteps = 1000;
    static constexpr int kMaxBeam = 32;
    static constexpr int kMaxSnapshot = 100000;
    static constexpr size_t kMaxMarks = 40;  // "rows" / "columns" a page names

    // A row or column a page talks about: a 1-based position, or a token as the axis shows it.
    struct Mark {
        int position = 0;   // > 0: this position
        std::string token;  // else every row (column) of this label
    };
    // A page's words in one language: as written (the markup), and parsed.
    struct Text {
        std::string text;
        LessonMarkup::Node markup;
    };
    struct Page {
        std::string text;  // as written (the markup), in English
        LessonMarkup::Node markup;
        std::map<std::string, Text> texts;  // the other languages' ("ko", "de", …), each checked as `text`
        std::string model, source, target, explainPart, highlight, heatmap, timeline, compare, image;
        int steps = 0, beam = 0, snapshot = 0;
        bool run = false, explain = false;
        std::vector<Mark> rows, columns;  // the target rows and source columns the page talks about
    };
    struct Lesson {
        std::string title, summary;  // in `language`
        std::vector<Page> pages;
        std::string language = "en";  // the language of title, summary and every page's text and markup
        // The languages besides English the file has ("titles"' keys, sorted); every page has each.
        std::vector<std::string> languages;
        std::map<std::string, std::string> titles, summaries;

        bool has(const std::string& language) const;
        // This lesson with title, summary and texts in `language` where it has it, else in English
        // (then `language` stays "en": the caller says so).
        Lesson in(const std::string& language) const;
    };
    // The names a page may give for "explain" and "heatmap" (the app's panel parts, its
    // attribution methods; "attention" is always allowed and read as none).
    struct Names {
        std::vector<std::string> explainParts, heatmaps;
    };

    // Throws Error "lesson 'file': page 3, "steps": ..." naming the file, the page and the key.
    static Lesson parse(const std::string& bytes, const std::string& file, const Names& names);
    // Whether `code` is an ISO 639-1 language code ("ko", "de"; lower case).
    static bool isLanguageCode(const std::string& code);
    // Whether `name` is a bundled model's or run's name (no folder, no .pt) rather than a path.
    static bool isBundledName(const std::string& name);
    // The highlight names a page may give.
    static const std::vector<std::string>& highlights();
};

}  // namespace alignscope::core
