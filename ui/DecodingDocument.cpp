#include "ui/DecodingDocument.h"

#include "core/attribution/Attributor.h"
#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/model/Model.h"
#include "core/model/ModelCache.h"
#include "core/text/Tokenizer.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <QMetaObject>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>

namespace alignscope::ui {
namespace {

qint64 nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::atomic<bool> abandonedWork{false};

}  // namespace

struct DecodingDocument::Shared {
    std::atomic<qint64> startedMs{0};  // when the running operation began; 0 when idle
    std::atomic<int> cancelGeneration{0};
    core::DecodingProgress progress;  // where the running operation is: encoding, step t
    // What the state's reading is doing after the operation itself ("" : the operation), so a
    // watch that gives up names it: the attribution of the heatmap, or View > Links' alignment.
    mutable std::mutex phaseMutex;
    std::string phase;
    bool linking = false;  // the phase is View > Links' alignment (with a reverse model, maybe)
    void enter(std::string what, bool links = false) {
        std::lock_guard<std::mutex> lock(phaseMutex);
        phase = std::move(what);
        linking = links;
    }
};

// State touched only on the decoding thread.
struct DecodingDocument::Worker {
    std::optional<core::Model> model;
    std::optional<core::DecodingSession> session;
    std::string source;
    std::string target;  // non-empty: teacher forcing
    std::vector<core::Hypothesis> beam;
    int selected = -1;
    std::vector<core::StepRecord> selectedSteps;  // beam[selected] replayed, for the panels
    int topK = 10;
    core::DecodingProgress* progress = nullptr;  // the document's watch reads it
    Shared* shared = nullptr;                    // its phases, which the watch names
    std::string attributionMethod;               // "" : attention only

    // Attribution rows already computed: a row depends only on the source and the target up to its
    // own token, so stepping on computes one new row and Back keeps the rest.
    struct AttributionCache {
        std::string method, source;
        std::vector<int64_t> ids;              // the target they were computed for
        std::vector<std::vector<float>> rows;  // [ids.size()][S]
    };
    mutable AttributionCache cache;

    void attribute(core::DecodingState& s) const {
        if (attributionMethod.empty() || !model) return;
        const auto target = s.shownTarget();
        if (cache.method != attributionMethod || cache.source != s.sourceText) cache = {attributionMethod, s.sourceText, {}, {}};
        size_t same = 0;
        while (same < cache.ids.size() && same < target.ids.size() && cache.ids[same] == target.ids[same]) ++same;
        cache.rows.resize(same);
        shared->enter(
            DecodingDocument::tr("attributing the target (heatmap: %1)").arg(QString::fromStdString(attributionMethod)).toStdString());
        s.attribute(*model, attributionMethod, cache.rows, progress);
        if (s.attribution.size() == target.ids.size()) {
            cache.ids = target.ids;
            cache.rows = s.attribution;
        }
    }

    std::string linkRule;  // "" : no links
    // The links last read (a pair is aligned once, not at every repaint) and the reverse models
    // loaded for them, by path.
    struct LinkCache {
        std::string key;  // model, rule, method, source and target
        std::vector<std::pair<int, int>> links;
        std::string error;
    };
    mutable LinkCache linkCache;
    mutable core::ModelCache reverseModels;

    // Off the UI thread, as every model call here: the rule read over the complete shown pair
    // (DecodingState::link, as `align` and the exports read it), once per pair.
    void link(core::DecodingState& s) const {
        if (linkRule.empty() || !model || (!s.finished && s.selectedHypothesis < 0)) return;  // a beam's hypotheses are whole
        const std::string shownTarget = s.teacherForced ? target : s.translation;
        const std::string method = attributionMethod.empty() ? "attention" : attributionMethod;
        const std::string key = model->origin() + '\n' + linkRule + '\n' + method + '\n' + s.sourceText + '\n' + shownTarget;
        if (linkCache.key != key) {
            shared->enter(DecodingDocument::tr("aligning the pair for View > Links").toStdString(), true);
            s.link(
                *model, shownTarget, linkRule, method, {},
                [this](const std::string& path) {
                    // Named before it loads: a reverse model that hangs is set aside with its name.
                    shared->enter(DecodingDocument::tr("aligning the pair for View > Links with the reverse model '%1'")
                                      .arg(QString::fromStdString(path))
                                      .toStdString(),
                                  true);
                    return reverseModels.load(path);
                },
                progress);
            linkCache = {key, s.links, s.linksError};
            return;
        }
        s.linkRule = linkRule;
        s.links = linkCache.links;
        s.linksError = linkCache.error;
    }

    void select(int index) {
        selected = index >= 0 && index < static_cast<int>(beam.size()) ? index : -1;
        selectedSteps.clear();
        if (selected < 0 || !model || !session) return;
        core::SessionOptions o;
        o.topK = topK;
        o.maxLength = session->maxLength();
        o.progress = progress;
        core::DecodingSession replay(*model, source, o);
        for (const auto id : beam[static_cast<size_t>(selected)].ids) replay.force(id);
        selectedSteps = replay.steps();
    }

    void rebuild() {
        session.reset();
        beam.clear();
        selected = -1;
        // A blank sentence (nothing visible) has nothing to translate: no session, so Step and the
        // rest stay off.
        if (!model || core::Tokenizer::isBlank(source)) return;
        core::SessionOptions o;
        o.topK = topK;
        o.progress = progress;
        session.emplace(*model, source, o);
        if (!target.empty()) session->alignTo(target);
    }

    core::DecodingStatePtr state() const {
        if (session) {
            auto s = std::make_shared<core::DecodingState>(core::DecodingState::capture(
                *session, !target.empty(), beam, selected, selected >= 0 ? selectedSteps : std::vector<core::StepRecord>{}));
            s->attributionMethod = attributionMethod;
            attribute(*s);
            link(*s);
            return s;
        }
        auto s = std::make_shared<core::DecodingState>();
        if (model) s->modelName = model->name();
        return s;
    }
};

DecodingDocument::DecodingDocument(QObject* parent) : QObject(parent), state_(std::make_shared<core::DecodingState>()) {
    qRegisterMetaType<core::DecodingStatePtr>("alignscope::core::DecodingStatePtr");
    watch_.setInterval(250);
    connect(&watch_, &QTimer::timeout, this, &DecodingDocument::checkStuck);
    startThread(nullptr);
}

DecodingDocument::~DecodingDocument() {
    cancel();
    thread_->quit();
    if (thread_->wait(kCancelGraceMs)) {
        delete worker_;
        delete thread_;
    } else {
        abandonedWork = true;  // stuck in model code: left running, never destroyed
    }
}

bool DecodingDocument::hasAbandonedWork() { return abandonedWork; }

void DecodingDocument::startThread(std::shared_ptr<const core::Model> model) {
    shared_ = std::make_shared<Shared>();
    worker_ = new Worker;
    worker_->progress = &shared_->progress;
    worker_->shared = shared_.get();
    worker_->linkRule = linkRule_;  // View > Links outlives an abandoned thread
    if (model) worker_->model = *model;
    thread_ = new QThread;
    context_ = new QObject;
    context_->moveToThread(thread_);
    connect(thread_, &QThread::finished, context_, &QObject::deleteLater);
    thread_->setObjectName(QStringLiteral("decoding"));
    thread_->start();
}

void DecodingDocument::post(std::function<void(Worker&)> job) {
    if (pending_++ == 0) {
        emit busyChanged(true);
        watch_.start();
    }
    Worker* worker = worker_;
    auto shared = shared_;  // kept alive by the job, should its thread be abandoned
    const int generation = generation_;
    QMetaObject::invokeMethod(
        context_,
        [this, worker, shared, generation, job = std::move(job)] {
            QString error;
            core::DecodingStatePtr snap;
            shared->progress.step = 0;
            shared->enter({});
            shared->startedMs = nowMs();
            try {
                job(*worker);
            } catch (const core::Error& e) {
                error = QString::fromStdString(e.what());
            } catch (const std::exception& e) {
                error = tr("unexpected error: %1").arg(QString::fromStdString(e.what()));
            }
            // Still watched: the state's attribution and links run model code too (a reverse model's).
            snap = worker->state();
            shared->startedMs = 0;
            QMetaObject::invokeMethod(
                this,
                [this, snap, error, generation] {
                    if (generation != generation_) return;  // an abandoned thread finished after all
                    state_ = snap;
                    cancelAtMs_ = 0;
                    if (!error.isEmpty()) emit errorOccurred(error);
                    emit stateChanged(snap);
                    if (--pending_ == 0) {
                        watch_.stop();
                        emit busyChanged(false);
                    }
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void DecodingDocument::checkStuck() {
    const qint64 started = shared_->startedMs;
    if (started == 0) return;
    const qint64 now = nowMs();
    // The limit counts silence, as the CLI's --time-limit does: every decoder step and every row of
    // an attribution beats, so a long sentence that keeps moving runs to its end, and code that
    // loops goes quiet and is set aside.
    const uint64_t beats = shared_->progress.beats;
    if (beats != lastBeats_) {
        lastBeats_ = beats;
        lastBeatMs_ = now;
    }
    const bool overTime = timeLimitMs_ > 0 && now - std::max(started, lastBeatMs_) > timeLimitMs_;
    std::string phase;
    bool linking = false;
    {
        std::lock_guard<std::mutex> lock(shared_->phaseMutex);
        phase = shared_->phase;
        linking = shared_->linking;
    }
    // An attribution or View > Links' alignment does not poll Cancel: it finishes, its state then
    // dropped by the newer request; only the silence limit sets it aside.
    const bool ignoredCancel = phase.empty() && cancelAtMs_ > 0 && now - cancelAtMs_ > kCancelGraceMs;
    if (!overTime && !ignoredCancel) return;
    const auto step = static_cast<long long>(shared_->progress.step);
    const QString where = !phase.empty() ? QString::fromStdString(phase)
                          : step == 0    ? tr("encoding the sentence")
                                         : tr("step %1").arg(step);
    const QString model = modelPath_.isEmpty() ? tr("The model") : QStringLiteral("'%1'").arg(modelPath_);
    QString why = overTime
                      ? tr("%1 did not finish %2 within %3 s: its code may loop for ever.").arg(model, where).arg(timeLimitMs_ / 1000.0)
                      : tr("%1 did not stop %2 when cancelled.").arg(model, where);
    if (linking) {
        // Every later state would read the same links and hang again: View > Links goes back to none.
        linkRule_.clear();
        why += tr(" View > Links is set back to None.");
    }
    abandon(why);
    if (linking) emit linkRuleDropped();
}

void DecodingDocument::abandon(const QString& why) {
    // The thread stays inside the model's code; it and its worker are left as they are (deleting
    // a running QThread aborts). Its late results carry an old generation and are dropped.
    abandonedWork = true;
    ++generation_;
    startThread(model_);
    pending_ = 0;
    cancelAtMs_ = 0;
    watch_.stop();
    auto empty = std::make_shared<core::DecodingState>();
    if (model_) empty->modelName = model_->name();
    state_ = empty;
    emit errorOccurred(why + tr(" The sentence was set aside; the model stays open."));
    emit stateChanged(state_);
    emit busyChanged(false);
}

// On the decoding thread: the model replaced (throws, and the old one stays, when it fails to load).
void DecodingDocument::load(Worker& w, const QString& path) {
    auto model = core::Model::load(path.toStdString());
    w.model = std::move(model);
    const QString name = QString::fromStdString(w.model->name());
    auto handle = std::make_shared<const core::Model>(*w.model);
    QMetaObject::invokeMethod(
        this,
        [this, name, path, handle] {
            model_ = handle;
            modelPath_ = path;
            modelName_ = name;
            emit modelChanged(name, path);
        },
        Qt::QueuedConnection);
}

// On the decoding thread: the sentence decoded anew (with the worker's target, if any).
void DecodingDocument::rebuild(Worker& w) {
    try {
        w.rebuild();
    } catch (const core::Error&) {
        w.session.reset();  // the sentence does not suit this model (e.g. too long): start empty
        throw;
    }
}

void DecodingDocument::openModel(const QString& path, bool keepTarget) {
    post([this, path, keepTarget](Worker& w) {
        load(w, path);  // throws: the old model and its target stay
        if (!keepTarget) w.target.clear();
        rebuild(w);
    });
}

void DecodingDocument::apply(const DecodingRequest& request) {
    const std::string method = request.attribution.toStdString();
    if (!method.empty()) core::Attributor::method(method);  // throws Error for an unknown name, here and now
    const bool newModel = !request.modelPath.isEmpty() && request.modelPath != modelPath_;
    auto shared = shared_;
    const int generation = shared->cancelGeneration;
    post([this, request, newModel, method, shared, generation](Worker& w) {
        if (newModel) load(w, request.modelPath);
        w.attributionMethod = method;
        w.source = request.source.toStdString();
        w.target = request.target.trimmed().toStdString();
        rebuild(w);
        if (!w.session) return;
        const auto going = [&] { return !w.session->finished() && shared->cancelGeneration == generation; };
        if (!w.target.empty()) {
            if (request.steps >= 0) {  // step k of the forced target
                w.session->reset();
                for (int k = 0; k < request.steps && going(); ++k) w.session->step();
            }
        } else if (request.run) {
            while (going()) w.session->step();
        } else {
            for (int k = 0; k < request.steps && going(); ++k) w.session->step();
        }
        if (request.beam > 0) search(w, request.beam, shared, generation);
    });
}

void DecodingDocument::setSource(const QString& text) {
    post([text](Worker& w) {
        w.source = text.toStdString();
        w.rebuild();
    });
}

void DecodingDocument::setTarget(const QString& text) {
    post([text](Worker& w) {
        w.target = text.trimmed().toStdString();
        w.beam.clear();
        w.selected = -1;
        if (!w.session) return;
        // Off: the steps so far stay and decoding goes on freely from them. On: the whole target
        // is forced (its alignment at once); Back, Step and Reset then walk it one token at a time.
        if (w.target.empty()) w.session->stopFollowing();
        else w.session->followTarget(w.target, -1);
    });
}

void DecodingDocument::step() {
    post([](Worker& w) {
        if (!w.session || w.session->finished()) return;
        w.selected = -1;
        w.session->step();
    });
}

void DecodingDocument::back() {
    post([](Worker& w) {
        if (!w.session) return;
        w.selected = -1;
        w.session->back();
    });
}

void DecodingDocument::runToEnd() {
    auto shared = shared_;
    const int generation = shared->cancelGeneration;
    post([shared, generation](Worker& w) {
        if (!w.session) return;
        w.selected = -1;
        while (!w.session->finished() && shared->cancelGeneration == generation) w.session->step();
    });
}

void DecodingDocument::reset() {
    post([](Worker& w) {
        if (!w.session) return;
        w.selected = -1;
        w.session->reset();  // a followed target stays: step 0 of it
    });
}

void DecodingDocument::force(int64_t tokenId) {
    post([tokenId](Worker& w) {
        if (!w.session || w.session->finished()) return;
        w.selected = -1;
        w.session->force(tokenId);
    });
}

void DecodingDocument::replaceLast(int64_t tokenId) {
    post([tokenId](Worker& w) {
        if (!w.session) return;
        w.selected = -1;
        w.session->back();
        w.session->force(tokenId);
    });
}

void DecodingDocument::runBeam(int width) {
    auto shared = shared_;
    const int generation = shared->cancelGeneration;
    post([shared, width, generation](Worker& w) { search(w, width, shared, generation); });
}

void DecodingDocument::search(Worker& w, int width, const std::shared_ptr<Shared>& shared, int generation) {
    if (!w.session) return;
    core::SearchOptions o;
    o.beamWidth = width;
    o.progress = &shared->progress;
    o.cancelled = [shared, generation] { return shared->cancelGeneration != generation; };
    try {
        w.beam = w.session->search(o);
    } catch (const core::Error&) {
        if (shared->cancelGeneration == generation) throw;
        w.beam.clear();  // a newer request (the next lesson page, a key) replaced this one: no error
        return;
    }
    w.select(0);
}

void DecodingDocument::selectHypothesis(int index) {
    post([index](Worker& w) { w.select(index); });
}

void DecodingDocument::setAttributionMethod(const QString& name) {
    const std::string method = name.toStdString();
    if (!method.empty()) core::Attributor::method(method);  // throws Error for an unknown name, here and now
    post([method](Worker& w) { w.attributionMethod = method; });
}

void DecodingDocument::setLinkRule(const QString& rule) {
    const std::string name = rule.toStdString();
    linkRule_ = name;
    post([name](Worker& w) { w.linkRule = name; });
}

void DecodingDocument::cancel() {
    ++shared_->cancelGeneration;
    if (shared_->startedMs != 0 && cancelAtMs_ == 0) cancelAtMs_ = nowMs();
}

bool DecodingDocument::waitUntilIdle(int timeoutMs) {
    if (pending_ > 0) {
        // Sleep in an event loop until the last state is delivered, waking on it at once.
        QEventLoop loop;
        const auto done = connect(this, &DecodingDocument::busyChanged, &loop, [&loop](bool busy) {
            if (!busy) loop.quit();
        });
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
        disconnect(done);
    }
    QCoreApplication::processEvents();
    return pending_ == 0;
}

}  // namespace alignscope::ui
