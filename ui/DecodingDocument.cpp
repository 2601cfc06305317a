#include "ui/DecodingDocument.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/model/Model.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <QMetaObject>

#include <optional>

namespace alignscope::ui {

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

    // Beam search keeps only tokens and alpha rows; the panels (candidates, context, states, Step
    // explained) need whole steps, so the shown hypothesis is forced through a second session of
    // the same sentence: a millisecond or so per token.
    void select(int index) {
        selected = index >= 0 && index < static_cast<int>(beam.size()) ? index : -1;
        selectedSteps.clear();
        if (selected < 0 || !model || !session) return;
        core::SessionOptions o;
        o.topK = topK;
        o.maxLength = session->maxLength();
        core::DecodingSession replay(*model, source, o);
        for (const auto id : beam[static_cast<size_t>(selected)].ids) replay.force(id);
        selectedSteps = replay.steps();
    }

    void rebuild() {
        session.reset();
        beam.clear();
        selected = -1;
        // A blank sentence has nothing to translate: no session, so Step and the rest stay off.
        if (!model || source.find_first_not_of(" \t\r\n") == std::string::npos) return;
        core::SessionOptions o;
        o.topK = topK;
        session.emplace(*model, source, o);
        if (!target.empty()) session->alignTo(target);
    }

    SnapshotPtr snapshot() const {
        if (session)
            return std::make_shared<DecodingSnapshot>(
                DecodingSnapshot::capture(*session, !target.empty(), beam, selected, selected >= 0 ? selectedSteps : std::vector<core::StepRecord>{}));
        auto s = std::make_shared<DecodingSnapshot>();
        if (model) s->modelName = model->name();
        return s;
    }
};

DecodingDocument::DecodingDocument(QObject* parent)
    : QObject(parent), worker_(std::make_unique<Worker>()), snapshot_(std::make_shared<DecodingSnapshot>()) {
    qRegisterMetaType<SnapshotPtr>("alignscope::ui::SnapshotPtr");
    context_ = new QObject;
    context_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, context_, &QObject::deleteLater);
    thread_.setObjectName(QStringLiteral("decoding"));
    thread_.start();
}

DecodingDocument::~DecodingDocument() {
    cancel();
    thread_.quit();
    thread_.wait();
}

void DecodingDocument::post(std::function<void(Worker&)> job) {
    if (pending_++ == 0) emit busyChanged(true);
    Worker* worker = worker_.get();
    QMetaObject::invokeMethod(context_, [this, worker, job = std::move(job)] {
        QString error;
        SnapshotPtr snap;
        try {
            job(*worker);
        } catch (const core::Error& e) {
            error = QString::fromStdString(e.what());
        } catch (const std::exception& e) {
            error = QStringLiteral("unexpected error: ") + QString::fromStdString(e.what());
        }
        snap = worker->snapshot();
        QMetaObject::invokeMethod(this, [this, snap, error] {
            snapshot_ = snap;
            if (!error.isEmpty()) emit errorOccurred(error);
            emit snapshotChanged(snap);
            if (--pending_ == 0) emit busyChanged(false);
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}

void DecodingDocument::openModel(const QString& path) {
    post([this, path](Worker& w) {
        auto model = core::Model::load(path.toStdString());  // throws: the old model stays
        w.model = std::move(model);
        const QString name = QString::fromStdString(w.model->name());
        QMetaObject::invokeMethod(this, [this, name, path] {
            modelPath_ = path;
            modelName_ = name;
            emit modelChanged(name, path);
        }, Qt::QueuedConnection);
        try {
            w.rebuild();
        } catch (const core::Error&) {
            w.session.reset();  // the sentence does not suit this model (e.g. too long): start empty
            throw;
        }
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
        if (w.target.empty()) w.session->reset();
        else w.session->alignTo(w.target);
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
    const int generation = cancelGeneration_;
    post([this, generation](Worker& w) {
        if (!w.session) return;
        w.selected = -1;
        while (!w.session->finished() && cancelGeneration_ == generation) w.session->step();
    });
}

void DecodingDocument::reset() {
    post([](Worker& w) {
        if (!w.session) return;
        w.selected = -1;
        w.target.clear();
        w.session->reset();
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
    const int generation = cancelGeneration_;
    post([this, width, generation](Worker& w) {
        if (!w.session) return;
        core::SearchOptions o;
        o.beamWidth = width;
        o.cancelled = [this, generation] { return cancelGeneration_ != generation; };
        w.beam = w.session->search(o);
        w.select(0);
    });
}

void DecodingDocument::selectHypothesis(int index) {
    post([index](Worker& w) { w.select(index); });
}

void DecodingDocument::cancel() { ++cancelGeneration_; }

bool DecodingDocument::waitUntilIdle(int timeoutMs) {
    if (pending_ > 0) {
        // Sleep in an event loop until the last snapshot is delivered, waking on it at once.
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
