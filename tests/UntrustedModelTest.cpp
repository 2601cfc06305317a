// A model file is untrusted input: the archive and pickle checks before LibTorch reads it, the
// checking child process that survives what LibTorch does not, and the checks on every step's
// numbers. The repro files of the fuzz campaign are python/tests/test_hostile_models.py.
#include "HostileModels.h"
#include "TinyModel.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/platform/IsolatedRun.h"
#include "core/model/ModelArchive.h"
#include "core/model/PickleScanner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace alignscope;
using core::PickleScanner;

namespace {

std::string scanError(const std::string& pickle, PickleScanner::RecordSize sizes = {}) {
    try {
        PickleScanner::scan(pickle, sizes);
    } catch (const core::Error& e) {
        return e.what();
    }
    return "";
}

std::string bytes(std::initializer_list<int> values) {
    std::string s;
    for (int v : values) s += static_cast<char>(v);
    return s;
}

// BINUNICODE of `text`.
std::string unicode(const std::string& text) {
    const auto n = static_cast<uint32_t>(text.size());
    return "X" + bytes({static_cast<int>(n & 0xFF), static_cast<int>((n >> 8) & 0xFF), 0, 0}) + text;
}

// A TorchScript-style tensor: _rebuild_tensor_v2(("storage", FloatStorage, "0", "cpu", numel), offset, size, stride, False, OrderedDict()).
std::string tensorPickle(int numel, int offset, int size0, int size1, int stride0, int stride1) {
    return bytes({0x80, 2}) + "ctorch._utils\n_rebuild_tensor_v2\n(" + "(" + unicode("storage") + "ctorch\nFloatStorage\n" + unicode("0") +
           unicode("cpu") + "K" + bytes({numel}) + "tQ" + "K" + bytes({offset}) + "(K" + bytes({size0}) + "K" + bytes({size1}) + "t(K" +
           bytes({stride0}) + "K" + bytes({stride1}) + "t" + bytes({0x89}) + "ccollections\nOrderedDict\n)RtR.";
}

}  // namespace

TEST(PickleScanner, AcceptsWhatTorchScriptWrites) {
    EXPECT_EQ(scanError(bytes({0x80, 2}) + "}(" + unicode("a") + "K" + bytes({1}) + "u."), "");
    EXPECT_EQ(scanError(bytes({0x80, 2}) + "]2a."), "");                         // a list holding itself (found by fuzzing: a leak)
    auto sixteen = [](const std::string& key) { return key == "0" ? 16 : -1; };  // 4 floats
    const auto refs = PickleScanner::scan(tensorPickle(4, 0, 2, 2, 2, 1), sixteen);
    ASSERT_EQ(refs.size(), 1u);
    EXPECT_EQ(refs[0].key, "0");
    EXPECT_EQ(refs[0].elements, 4);
    EXPECT_EQ(refs[0].elementSize, 4);
}

TEST(PickleScanner, RefusesWhatLibTorchWouldCrashOrAllocateOn) {
    // REDUCE on an empty stack (LibTorch: segfault)
    EXPECT_NE(scanError(bytes({0x80, 2}) + "R."), "") << "REDUCE";
    EXPECT_NE(scanError(bytes({0x80, 2}) + "R.").find("empty stack"), std::string::npos);
    // a string longer than the pickle (LibTorch: allocates the declared 2 GB)
    const auto huge = scanError(bytes({0x80, 2}) + "X" + bytes({0xF0, 0xFF, 0xFF, 0x7F}) + "abc.");
    EXPECT_NE(huge.find("declares 2147483632 bytes"), std::string::npos) << huge;
    // cut short, a memo entry never stored, an unknown instruction, bytes after STOP
    EXPECT_NE(scanError(bytes({0x80, 2}) + "X" + bytes({3, 0})).find("ends inside"), std::string::npos);
    EXPECT_NE(scanError(bytes({0x80, 2}) + "h" + bytes({7}) + ".").find("memo entry 7"), std::string::npos);
    EXPECT_NE(scanError(bytes({0x80, 2, 0xFF})).find("0xff"), std::string::npos);
    EXPECT_NE(scanError(bytes({0x80, 2}) + "N.N").find("after its end"), std::string::npos);
    // values nested deeper than the scanner follows (and LibTorch's recursion survives)
    std::string deep = bytes({0x80, 2}) + "N";
    for (int i = 0; i < PickleScanner::kMaxNesting + 5; ++i) deep += static_cast<char>(0x85);  // TUPLE1
    EXPECT_NE(scanError(deep + ".").find("nest more than"), std::string::npos);
}

TEST(PickleScanner, StoragesMustMatchTheirRecordsAndTensorsStayInside) {
    auto sixteen = [](const std::string& key) { return key == "0" ? 16 : -1; };
    // the storage declares 0 elements (LibTorch: a null read in Module::to)
    const auto zero = scanError(tensorPickle(0, 0, 2, 2, 2, 1), sixteen);
    EXPECT_NE(zero.find("storage '0' declares 0 elements of 4 bytes, and its record holds 16 bytes"), std::string::npos) << zero;
    // the record is missing
    EXPECT_NE(scanError(tensorPickle(4, 0, 2, 2, 2, 1), [](const std::string&) { return -1; }).find("no record"), std::string::npos);
    // a tensor that reaches past its storage: 3x2 from a 4-element storage, or offset 1 of a 2x2
    EXPECT_NE(scanError(tensorPickle(4, 0, 3, 2, 2, 1), sixteen).find("reaches element 5"), std::string::npos);
    EXPECT_NE(scanError(tensorPickle(4, 1, 2, 2, 2, 1), sixteen).find("reaches element 4"), std::string::npos);
    EXPECT_EQ(scanError(tensorPickle(4, 0, 0, 9, 9, 1), sixteen), "");  // empty: reads nothing
}

TEST(ModelArchive, ASavedModelPassesAndAFlippedWeightByteFailsItsChecksum) {
    tests::TempDir dir;
    tests::tinyModel().save(dir.path("m.pt"));
    const auto entries = core::ModelArchive::check(dir.path("m.pt"));
    EXPECT_GT(entries.size(), 3u);
    std::ifstream in(dir.path("m.pt"), std::ios::binary);
    std::string data{std::istreambuf_iterator<char>(in), {}};
    const auto weights = std::find_if(entries.begin(), entries.end(), [](const auto& e) { return e.name == "data/0"; });
    ASSERT_NE(weights, entries.end());
    data[weights->offset + 2] ^= 0x40;
    std::ofstream(dir.path("flipped.pt"), std::ios::binary) << data;
    try {
        core::Model::load(dir.path("flipped.pt"));
        FAIL() << "a flipped weight byte was accepted";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("entry 'data/0' fails its checksum"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(dir.path("flipped.pt")), std::string::npos) << e.what();
    }
}

TEST(IsolatedRun, ReportsSuccessFailureCrashTimeOutAndMemory) {
    using Kind = core::IsolatedRun::Outcome::Kind;
    core::IsolatedRun::Limits limits;
    limits.seconds = 2;
    limits.extraMemoryBytes = 256ull << 20;
    EXPECT_EQ(core::IsolatedRun::run([] {}, limits).kind, Kind::Succeeded);
    const auto failed = core::IsolatedRun::run([] { throw core::Error("no good"); }, limits);
    EXPECT_EQ(failed.kind, Kind::Failed);
    EXPECT_EQ(failed.message, "no good");
    const auto crashed = core::IsolatedRun::run(
        [] {
            core::IsolatedRun::note("reading the weights");
            std::raise(SIGSEGV);
        },
        limits);
    EXPECT_EQ(crashed.kind, Kind::Crashed);
    EXPECT_EQ(crashed.message, "SIGSEGV");
    EXPECT_EQ(crashed.phase, "reading the weights");
    const auto start = std::chrono::steady_clock::now();
    const auto hung = core::IsolatedRun::run(
        [] {
            for (volatile long i = 0;; ++i) {
            }
        },
        limits);
    EXPECT_EQ(hung.kind, Kind::TimedOut);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    const auto greedy = core::IsolatedRun::run(
        [] {
            static char* volatile kept;
            kept = new char[size_t{4} << 30];  // 4 GiB past a 256 MiB allowance (kept: not optimised away)
            kept[0] = 1;
        },
        limits);
    EXPECT_EQ(greedy.kind, Kind::OutOfMemory);
}

TEST(UntrustedModel, NaNLogProbabilitiesEndTheSentenceNamingTheStep) {
    tests::TempDir dir;
    const auto path = tests::writeHostileModel(dir.path("nan.pt"), tests::Misbehaviour::NanFromStep3);
    auto model = core::Model::load(path);  // the probe's one step is fine
    core::DecodingSession session(model, "a b");
    session.step();
    session.step();
    try {
        session.step();
        FAIL() << "NaN passed";
    } catch (const core::NonFiniteOutput& e) {
        EXPECT_EQ(std::string(e.what()), "the model '" + path + "' produced NaN at step 3 (in its log-probabilities)");
    }
    EXPECT_EQ(session.steps().size(), 2u);  // nothing made up for step 3
    try {
        session.search(core::SearchOptions{});
        FAIL() << "greedy search passed NaN";
    } catch (const core::NonFiniteOutput& e) {
        EXPECT_NE(std::string(e.what()).find("produced NaN at step 3"), std::string::npos);
    }
}

TEST(UntrustedModel, AStepThatRaisesIsAnErrorNamingFileStepAndCause) {
    tests::TempDir dir;
    const auto path = tests::writeHostileModel(dir.path("raises.pt"), tests::Misbehaviour::RaisesFromStep2);
    auto model = core::Model::load(path);
    core::DecodingSession session(model, "a b");
    session.step();
    try {
        session.step();
        FAIL();
    } catch (const core::Error& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("the model '" + path + "' failed in its step code at step 2: ", 0), 0u) << m;
        EXPECT_NE(m.find("step 2 is not allowed"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;  // the cause, not the traceback
    }
}

TEST(UntrustedModel, CodeThatLoopsInTheProbeIsRefusedWithinTheLoadTimeLimit) {
    tests::TempDir dir;
    // Loops only for sources longer than the probe's (2 and 3 tokens): it loads.
    EXPECT_NO_THROW(core::Model::load(tests::writeHostileModel(dir.path("long.pt"), tests::Misbehaviour::LoopsOnLongSources)));
    const auto path = tests::writeHostileModel(dir.path("loops.pt"), tests::Misbehaviour::LoopsInEncode);
    setenv("ALIGNSCOPE_LOAD_TIME_LIMIT", "1.5", 1);
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
        core::Model::load(path);
    } catch (const core::Error& e) {
        message = e.what();
    }
    unsetenv("ALIGNSCOPE_LOAD_TIME_LIMIT");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_EQ(message, "'" + path +
                           "' did not load within 1.5 s while running its encode on a test sentence: its code may loop for "
                           "ever; nothing was loaded (ALIGNSCOPE_LOAD_TIME_LIMIT sets the limit)");
}

TEST(UntrustedModel, AFileWhoseBytesPassedTheCheckingChildSkipsItNextTime) {
    tests::TempDir dir;
    setenv("ALIGNSCOPE_CACHE_DIR", dir.path("cache").c_str(), 1);
    const auto good = dir.path("good.pt"), other = dir.path("other.pt");
    tests::tinyModel().save(good, false);
    tests::tinyModel(tests::tinySpec(core::ModelSpec::Cell::LSTM)).save(other, false);
    core::Model::load(good);  // checked in a child, then remembered
    // A time limit no child can meet: only the remembered bytes still load.
    setenv("ALIGNSCOPE_LOAD_TIME_LIMIT", "0.000001", 1);
    EXPECT_NO_THROW(core::Model::load(good));
    std::string message;
    try {
        core::Model::load(other);
    } catch (const core::Error& e) {
        message = e.what();
    }
    EXPECT_EQ(message.rfind("'" + other + "' did not load within", 0), 0u) << message;
    // The same bytes under another name are the same file; a changed byte is a new one.
    std::filesystem::copy_file(good, dir.path("copy.pt"));
    EXPECT_NO_THROW(core::Model::load(dir.path("copy.pt")));
    unsetenv("ALIGNSCOPE_LOAD_TIME_LIMIT");
    // Files that failed left nothing behind: one entry, the good file's.
    int entries = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.path("cache") + "/verified-models")) {
        ++entries;
        EXPECT_EQ(e.path().filename().string().size(), 64u);  // its SHA-256
    }
    EXPECT_EQ(entries, 1);
    // An empty ALIGNSCOPE_CACHE_DIR turns the cache off: the child runs again.
    setenv("ALIGNSCOPE_CACHE_DIR", "", 1);
    setenv("ALIGNSCOPE_LOAD_TIME_LIMIT", "0.000001", 1);
    EXPECT_THROW(core::Model::load(good), core::Error);
    unsetenv("ALIGNSCOPE_LOAD_TIME_LIMIT");
    unsetenv("ALIGNSCOPE_CACHE_DIR");
}
