#pragma once
#include "core/inspection/DecodingState.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace alignscope::core {
class Model;
}

namespace alignscope::ui {

class ComparePanel;
class DecodingDocument;

// A second model beside the window's (File > Compare with…): model B's document decodes A's
// sentence, or is forced along A's given target, and the panel draws the two alignments and their
// difference; both models' scores on a test set are computed on a thread this controller owns. A
// model B that fails to open, or cannot take the sentence, is a message in the panel. The window
// shows the dock and enables the actions.
class ComparisonController : public QObject {
    Q_OBJECT
public:
    explicit ComparisonController(ComparePanel* panel, QObject* parent = nullptr);
    ~ComparisonController() override;  // stops the scoring thread: it runs LibTorch

    void open(const QString& path);  // B's model; a model open before is replaced
    void close();                    // B and its scores go
    bool active() const { return document_ != nullptr; }
    DecodingDocument* document() const { return document_; }  // B's, null while not comparing
    QString modelPath() const;                                // B's, empty until one has opened
    bool busy() const;                                        // B decoding, or the test set being scored

    // A's state changed: B follows its sentence (forced along `givenTarget` where A is), and the
    // panel draws both, over words or over tokens.
    void follow(core::DecodingStatePtr a, const QString& givenTarget, bool mergeWords);

    // Both models' BLEU (and AER, given gold links) on a test file. A newer request replaces a
    // running one; results of one stopped arrive nowhere.
    void score(std::shared_ptr<const core::Model> a, const QString& testPath, const QString& goldPath);
    void forgetScores();  // A changed: its scores go with it

    // Runs the event loop until B and the scoring have finished, or `timeoutMs` passed.
    bool waitUntilIdle(int timeoutMs);

signals:
    void modelOpened();                       // B has a model: it can be scored
    void titleChanged(const QString& title);  // for the dock
    void status(const QString& line);         // a line for the status bar (B's errors, the scoring's)

private:
    void render();
    void stopScoring();

    QPointer<ComparePanel> panel_;          // the dock's: it may go before this controller
    DecodingDocument* document_ = nullptr;  // model B (owned)
    core::DecodingStatePtr a_;              // A's last state
    QString givenTarget_;                   // the target A was given (B is forced along it where A is)
    bool mergeWords_ = true;
    QString comparedSource_, comparedTarget_;  // what B was last asked to decode
    bool comparedValid_ = false;
    bool opening_ = false;  // B's model is being opened (an error means it failed to open)
    QString error_;         // B's last error, shown in place of the figure
    QThread* scoring_ = nullptr;
    std::shared_ptr<std::atomic<bool>> scoringCancelled_;  // tells it to stop between sentences
    int scoringGeneration_ = 0;                            // results of an older request are dropped
};

}  // namespace alignscope::ui
