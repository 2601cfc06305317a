#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace alignscope::core {

// The text of a lesson page: a small subset of HTML, checked whole and within limits before
// anything renders it (docs/lessons.md, "Page text"). Rich text with no limits crashed or hung
// the app (tables nested 3,000 deep, <img src="/dev/zero">, 100,000 <b>): this parser accepts
// only the elements below, without attributes except an inline picture's relative `src`.
// Qt- and Torch-free: the app renders the tree into a QLabel, the HTML lesson export into a page,
// and a fuzz target runs it (tests/fuzz/FuzzLesson.cpp).
class LessonMarkup {
public:
    static constexpr size_t kMaxBytes = 16 * 1024;  // the longest shipped page has 1.5 kB
    static constexpr int kMaxDepth = 8;             // elements inside elements
    static constexpr size_t kMaxElements = 1000;
    static constexpr size_t kMaxImages = 8;

    enum class Kind {
        Root,
        Text,          // `text` holds the characters, entities decoded
        Emphasis,      // <i>, <em>
        Strong,        // <b>, <strong>
        Code,          // <tt>, <code>
        Subscript,     // <sub>
        Superscript,   // <sup>
        LineBreak,     // <br>
        BulletList,    // <ul>: Items only
        NumberedList,  // <ol>: Items only
        Item,          // <li>
        Image,         // <img src="figures/x.png">: `text` holds the path as written, relative to the lesson
    };
    struct Node {
        Kind kind = Kind::Root;
        std::string text;
        std::vector<Node> children;
    };

    // Throws Error "at character N: ..." for anything outside the subset or its limits.
    static Node parse(const std::string& text);
    // The tree as HTML (text escaped); `imageUrl` maps an Image's path to the `src` written.
    static std::string toHtml(const Node& root, const std::function<std::string(const std::string&)>& imageUrl);
    // Text as HTML character data or a quoted attribute value: & < > " ' as entities. The one
    // escaper of the project (the web pages use it too).
    static std::string escape(const std::string& text);
    // The tree as plain text, as HTML reads it: whitespace runs one space, each no-break space a space, <br>
    // and each list item a new line, s<sub>t-1</sub> as s_{t-1} and v<sup>T</sup> as v^T, pictures
    // nothing. The exported page's plain `text` and the lesson index's first lines.
    static std::string plainText(const Node& root);
    // Every Image's path, in order.
    static std::vector<std::string> images(const Node& root);
};

}  // namespace alignscope::core
