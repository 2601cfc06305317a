#pragma once
#include "core/inspection/DecodingState.h"
#include "ui/FigureOptions.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace alignscope::ui {

// The one place a decoding becomes the AlignScope alignment JSON, version 2
// (resources/web/page.schema.json, docs/page-format.md): what `export --format json` writes with
// exact numbers and what an HTML page (HtmlPage) embeds with rounded ones. Everything the page
// draws comes from here: tokens and words, every step's alpha row, candidates, Step explained's
// numbers, beam hypotheses, the attribution, the model's card.
class PageData {
public:
    struct Settings {
        std::optional<int> rounded;  // decimals of every real number; nullopt: exact engine values
        bool fullMatrix = false;     // true: alpha keeps the </s> column whatever options.endColumn
                                     // says (the page drops it itself); false: as the figure shows it
        std::optional<int> step;     // the step the page opens on; nullopt: all shown
        std::string heatmap;         // the heatmap the page opens on ("" attention)
        int beamWidth = 1;           // the search the steps came from
    };
    static nlohmann::json build(const core::DecodingState& state, const FigureOptions& options, const Settings& settings);

    // The figure options as files record them ("options" of the JSON, the CSV's comment).
    static nlohmann::json options(const FigureOptions& options);
    // The word links a page and an export hold, in Pharaoh form: the View > Links rule's where one
    // was read, else attention's argmax.
    static std::string links(const core::DecodingState& state);

    // JSON text safe inside an HTML <script> element: '<', '>', '&' and U+2028/9 as \u escapes,
    // so no text of the data (a token "</script>") can end the element or start markup.
    static std::string scriptSafe(const nlohmann::json& data);
};

}  // namespace alignscope::ui
