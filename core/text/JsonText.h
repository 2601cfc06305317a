#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace alignscope::core {

// JSON as every writer of the project prints it. Bytes that are not UTF-8 become U+FFFD (a json
// library exception would end a run without naming its file or line), and U+0085, U+2028, U+2029
// are written as \u escapes: JavaScript and line readers (Python's splitlines) take them for line ends.
class JsonText {
public:
    static std::string dump(const nlohmann::json& value, int indent = -1);
    // dump, with <, > and & escaped too, for data inside an HTML <script> element.
    static std::string scriptSafe(const nlohmann::json& value);
};

}  // namespace alignscope::core
