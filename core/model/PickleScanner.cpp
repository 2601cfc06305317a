#include "core/model/PickleScanner.h"

#include "ModelCheckLimits.h"

#include "core/Error.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

namespace alignscope::core {

const int PickleScanner::kMaxNesting = model_checks::kMaxPickleNesting;
namespace {

// A value as far as the checks need one: scalars, strings, containers, and opaque objects (what a
// callable returns). Containers are shared, as the pickle's memo shares them.
struct Node;
using Ref = std::shared_ptr<Node>;
struct Node {
    enum class Kind { None, Bool, Int, BigInt, Float, String, Bytes, Tuple, List, Dict, Set, Global, Object, Storage, Tensor };
    Kind kind = Kind::None;
    int64_t number = 0;      // Int, Bool; Storage: elements
    std::string text;        // String, Bytes; Global: "module.name"; Storage: key
    std::vector<Ref> items;  // Tuple only (immutable, so never part of a cycle)
    int depth = 1;           // nesting, for kMaxNesting
};

Ref make(Node::Kind kind) {
    auto n = std::make_shared<Node>();
    n->kind = kind;
    return n;
}

const char* kindName(Node::Kind k) {
    switch (k) {
    case Node::Kind::None:
        return "None";
    case Node::Kind::Bool:
        return "a bool";
    case Node::Kind::Int:
    case Node::Kind::BigInt:
        return "an int";
    case Node::Kind::Float:
        return "a float";
    case Node::Kind::String:
        return "a string";
    case Node::Kind::Bytes:
        return "bytes";
    case Node::Kind::Tuple:
        return "a tuple";
    case Node::Kind::List:
        return "a list";
    case Node::Kind::Dict:
        return "a dict";
    case Node::Kind::Set:
        return "a set";
    case Node::Kind::Global:
        return "a class or function";
    case Node::Kind::Object:
        return "an object";
    case Node::Kind::Storage:
        return "a storage";
    case Node::Kind::Tensor:
        return "a tensor";
    }
    return "a value";
}

class Machine {
public:
    Machine(std::string_view bytes, const PickleScanner::RecordSize& recordSize) : in_(bytes), recordSize_(recordSize) {}

    std::vector<PickleScanner::StorageReference> run() {
        while (true) {
            at_ = pos_;
            const auto op = static_cast<unsigned char>(take(1)[0]);
            if (op == '.') break;  // STOP
            execute(op);
        }
        if (stack_.size() != 1) fail("it ends with " + std::to_string(stack_.size()) + " values on the stack instead of 1");
        // Torch writes nothing after STOP; bytes there mean the pickle was spliced or damaged.
        if (pos_ != in_.size()) fail("it has " + std::to_string(in_.size() - pos_) + " bytes after its end");
        return storages_;
    }

private:
    [[noreturn]] void fail(const std::string& why) const { throw Error("byte " + std::to_string(at_) + ": " + why); }

    std::string_view take(size_t n) {
        if (n > in_.size() - pos_) fail("the pickle ends inside an instruction (cut short or damaged)");
        auto s = in_.substr(pos_, n);
        pos_ += n;
        return s;
    }
    uint64_t little(size_t n) {
        const auto s = take(n);
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(s[i])) << (8 * i);
        return v;
    }
    std::string_view line() {
        const auto end = in_.find('\n', pos_);
        if (end == std::string_view::npos) fail("the pickle ends inside a text instruction");
        auto s = in_.substr(pos_, end - pos_);
        pos_ = end + 1;
        return s;
    }
    std::string_view counted(uint64_t n) {
        if (n > in_.size() - pos_)
            fail("a string declares " + std::to_string(n) + " bytes but only " + std::to_string(in_.size() - pos_) +
                 " remain (a damaged length)");
        return take(static_cast<size_t>(n));
    }

    Ref pop() {
        if (stack_.size() <= floor()) fail("an instruction takes a value from an empty stack");
        auto v = std::move(stack_.back());
        stack_.pop_back();
        return v;
    }
    Ref& top() {
        if (stack_.size() <= floor()) fail("an instruction needs a value on an empty stack");
        return stack_.back();
    }
    size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    std::vector<Ref> popMark() {
        if (marks_.empty()) fail("an instruction needs a MARK that was never set");
        std::vector<Ref> items(stack_.begin() + static_cast<std::ptrdiff_t>(marks_.back()), stack_.end());
        stack_.resize(marks_.back());
        marks_.pop_back();
        return items;
    }
    void push(Ref v) {
        for (const auto& item : v->items) v->depth = std::max(v->depth, item->depth + 1);
        if (v->depth > PickleScanner::kMaxNesting) fail("values nest more than " + std::to_string(PickleScanner::kMaxNesting) + " deep");
        stack_.push_back(std::move(v));
    }
    void pushInt(int64_t v) {
        auto n = make(Node::Kind::Int);
        n->number = v;
        push(n);
    }
    void pushText(Node::Kind kind, std::string_view s) {
        auto n = make(kind);
        n->text.assign(s);
        push(n);
    }
    Ref container(Node::Kind kind, std::vector<Ref> items) {
        auto n = make(kind);
        for (const auto& item : items) n->depth = std::max(n->depth, item->depth + 1);
        if (kind == Node::Kind::Tuple) n->items = std::move(items);
        return n;
    }
    void addTo(const Ref& target, Node::Kind kind, std::vector<Ref> items, const char* what) {
        if (target->kind != kind && !(kind == Node::Kind::List && target->kind == Node::Kind::Object))
            fail(std::string(what) + " into " + kindName(target->kind));
        if (kind == Node::Kind::Dict && items.size() % 2 != 0) fail("a dict update with a key and no value");
        // Mutable containers keep only their depth, not their items: a list appended to itself
        // (DUP, APPEND) would otherwise be a cycle of shared pointers. Only tuples' items are read.
        for (auto& item : items) target->depth = std::max(target->depth, item->depth + 1);
        if (target->depth > PickleScanner::kMaxNesting)
            fail("values nest more than " + std::to_string(PickleScanner::kMaxNesting) + " deep");
    }
    void put(uint64_t index) {
        if (memo_.size() > model_checks::kMaxMemoEntries) fail("too many memo entries");
        memo_[index] = top();
    }
    void get(uint64_t index) {
        auto it = memo_.find(index);
        if (it == memo_.end()) fail("it reads memo entry " + std::to_string(index) + ", which was never stored");
        push(it->second);
    }
    int64_t decimal(std::string_view s) {
        if (!s.empty() && (s.back() == 'L')) s.remove_suffix(1);
        if (s == "00") return 0;  // protocol 0's False
        if (s == "01") return 1;
        try {
            size_t used = 0;
            const auto v = std::stoll(std::string(s), &used);
            if (used != s.size()) fail("a malformed number");
            return v;
        } catch (const std::exception&) {
            fail("a malformed or too large number");
        }
    }
    void global(std::string module, std::string name) {
        auto n = make(Node::Kind::Global);
        n->text = module + "." + name;
        push(n);
    }

    void persistent(const Ref& pid) {
        // TorchScript writes ("storage", torch.<Type>Storage, key, location, numel).
        const auto& it = pid->items;
        if (pid->kind != Node::Kind::Tuple || it.size() != 5 || it[0]->kind != Node::Kind::String || it[0]->text != "storage" ||
            it[1]->kind != Node::Kind::Global || it[2]->kind != Node::Kind::String || it[4]->kind != Node::Kind::Int)
            fail("a reference to data that is not a storage (\"storage\", type, key, location, size)");
        if (!recordSize_) fail("a storage reference where none may be");
        const auto dot = it[1]->text.rfind('.');
        const std::string type = it[1]->text.substr(dot == std::string::npos ? 0 : dot + 1);
        const int64_t size = PickleScanner::elementSize(type);
        if (size == 0) fail("a storage of unknown type '" + it[1]->text + "'");
        const int64_t elements = it[4]->number;
        const std::string& key = it[2]->text;
        if (elements < 0) fail("storage '" + key + "' declares " + std::to_string(elements) + " elements");
        const int64_t recorded = recordSize_(key);
        if (recorded < 0) fail("storage '" + key + "' has no record in the archive");
        if (elements > INT64_MAX / size || elements * size != recorded)
            fail("storage '" + key + "' declares " + std::to_string(elements) + " elements of " + std::to_string(size) +
                 " bytes, and its record holds " + std::to_string(recorded) + " bytes");
        auto n = make(Node::Kind::Storage);
        n->text = key;
        n->number = elements;
        storages_.push_back({key, type, size, elements});
        push(n);
    }

    // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, ...): every element it can
    // reach must lie inside the storage (LibTorch reads wherever the sizes say).
    void checkTensor(const std::vector<Ref>& args) {
        if (args.size() < 4 || args[0]->kind != Node::Kind::Storage || args[1]->kind != Node::Kind::Int ||
            args[2]->kind != Node::Kind::Tuple || args[3]->kind != Node::Kind::Tuple)
            fail("a tensor rebuilt from something other than (storage, offset, size, stride)");
        const auto& sizes = args[2]->items;
        const auto& strides = args[3]->items;
        if (sizes.size() != strides.size() || sizes.size() > 64) fail("a tensor whose size and stride disagree");
        const std::string& key = args[0]->text;
        const int64_t offset = args[1]->number;
        if (offset < 0) fail("tensor on storage '" + key + "' starts at a negative offset");
        __int128 last = offset;  // the highest element index it reaches
        bool empty = false;
        for (size_t d = 0; d < sizes.size(); ++d) {
            if (sizes[d]->kind != Node::Kind::Int || strides[d]->kind != Node::Kind::Int)
                fail("a tensor with a size or stride that is not an int");
            const int64_t n = sizes[d]->number, s = strides[d]->number;
            if (n < 0 || s < 0) fail("tensor on storage '" + key + "' has a negative size or stride");
            if (n == 0) empty = true;
            else last += static_cast<__int128>(n - 1) * s;
        }
        if (!empty && last >= args[0]->number)
            fail("a tensor reaches element " + std::to_string(static_cast<long long>(std::min<__int128>(last, INT64_MAX))) +
                 " of storage '" + key + "', which has " + std::to_string(args[0]->number));
    }

    void execute(unsigned char op) {
        using K = Node::Kind;
        switch (op) {
        case 0x80:
            take(1);
            break;  // PROTO
        case 0x95:
            take(8);
            break;  // FRAME: a hint only
        case '(':
            marks_.push_back(stack_.size());
            break;
        case '0':
            pop();
            break;
        case '1':
            popMark();
            break;
        case '2':
            push(top());
            break;
        case 'N':
            push(make(K::None));
            break;
        case 0x88:
        case 0x89: {
            auto n = make(K::Bool);
            n->number = op == 0x88;
            push(n);
            break;
        }
        case 'J':
            pushInt(static_cast<int32_t>(little(4)));
            break;
        case 'K':
            pushInt(static_cast<int64_t>(little(1)));
            break;
        case 'M':
            pushInt(static_cast<int64_t>(little(2)));
            break;
        case 'I':
        case 'L':
            pushInt(decimal(line()));
            break;
        case 0x8a:
        case 0x8b: {  // LONG1, LONG4: little-endian two's complement
            const uint64_t n = op == 0x8a ? little(1) : little(4);
            const auto bytes = counted(n);
            if (n > 8) {
                push(make(K::BigInt));
                break;
            }
            uint64_t v = 0;
            for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
            if (n > 0 && n < 8 && (static_cast<unsigned char>(bytes[n - 1]) & 0x80)) v |= ~uint64_t{0} << (8 * n);
            pushInt(static_cast<int64_t>(v));
            break;
        }
        case 'G': {
            take(8);
            push(make(K::Float));
            break;
        }
        case 'F':
            line();
            push(make(K::Float));
            break;
        case 'X':
            pushText(K::String, counted(little(4)));
            break;
        case 0x8c:
            pushText(K::String, counted(little(1)));
            break;
        case 0x8d:
            pushText(K::String, counted(little(8)));
            break;
        case 'T':
            pushText(K::String, counted(little(4)));
            break;
        case 'U':
            pushText(K::String, counted(little(1)));
            break;
        case 'B':
            pushText(K::Bytes, counted(little(4)));
            break;
        case 'C':
            pushText(K::Bytes, counted(little(1)));
            break;
        case 0x8e:
            pushText(K::Bytes, counted(little(8)));
            break;
        case 'S':
        case 'V':
            pushText(K::String, line());
            break;
        case ')':
            push(make(K::Tuple));
            break;
        case 't':
            push(container(K::Tuple, popMark()));
            break;
        case 0x85:
        case 0x86:
        case 0x87: {
            const size_t n = op - 0x84;
            std::vector<Ref> items(n);
            for (size_t i = n; i-- > 0;) items[i] = pop();
            push(container(K::Tuple, std::move(items)));
            break;
        }
        case ']':
            push(make(K::List));
            break;
        case 'l':
            push(container(K::List, popMark()));
            break;  // items dropped by container()
        case 'a': {
            auto v = pop();
            addTo(top(), K::List, {std::move(v)}, "an append");
            break;
        }
        case 'e': {
            auto items = popMark();
            addTo(top(), K::List, std::move(items), "an append");
            break;
        }
        case '}':
            push(make(K::Dict));
            break;
        case 'd': {
            auto items = popMark();
            if (items.size() % 2) fail("a dict with a key and no value");
            push(container(K::Dict, std::move(items)));
            break;
        }
        case 's': {
            auto v = pop();
            auto k = pop();
            addTo(top(), K::Dict, {std::move(k), std::move(v)}, "a dict update");
            break;
        }
        case 'u': {
            auto items = popMark();
            addTo(top(), K::Dict, std::move(items), "a dict update");
            break;
        }
        case 0x8f:
            push(make(K::Set));
            break;
        case 0x90: {
            auto items = popMark();
            addTo(top(), K::Set, std::move(items), "a set update");
            break;
        }
        case 0x91:
            push(container(K::Set, popMark()));
            break;
        case 'c': {
            std::string module(line());
            std::string name(line());
            global(std::move(module), std::move(name));
            break;
        }
        case 0x93: {
            auto name = pop();
            auto module = pop();
            if (module->kind != K::String || name->kind != K::String) fail("a class named by something other than strings");
            global(module->text, name->text);
            break;
        }
        case 'R': {
            auto args = pop();
            auto callable = pop();
            if (callable->kind != K::Global) fail("a call of " + std::string(kindName(callable->kind)) + ", not of a class or function");
            if (args->kind != K::Tuple) fail("a call whose arguments are " + std::string(kindName(args->kind)) + ", not a tuple");
            const bool tensor = std::any_of(std::begin(model_checks::kTensorRebuilders), std::end(model_checks::kTensorRebuilders),
                                            [&](const char* name) { return callable->text == name; });
            if (tensor) checkTensor(args->items);
            push(make(tensor ? K::Tensor : K::Object));
            break;
        }
        case 'b': {
            pop();  // the state, set on the object below it
            top();
            break;
        }
        case 0x81: {  // NEWOBJ
            auto args = pop();
            auto cls = pop();
            if (cls->kind != K::Global || args->kind != K::Tuple) fail("a NEWOBJ of something other than a class and a tuple");
            push(make(K::Object));
            break;
        }
        case 0x92: {  // NEWOBJ_EX
            auto kwargs = pop();
            auto args = pop();
            auto cls = pop();
            if (cls->kind != K::Global || args->kind != K::Tuple || kwargs->kind != K::Dict)
                fail("a NEWOBJ_EX of something other than a class, a tuple and a dict");
            push(make(K::Object));
            break;
        }
        case 'q':
            put(little(1));
            break;
        case 'r':
            put(little(4));
            break;
        case 'p':
            put(static_cast<uint64_t>(decimal(line())));
            break;
        case 0x94:
            put(memo_.size());
            break;
        case 'h':
            get(little(1));
            break;
        case 'j':
            get(little(4));
            break;
        case 'g':
            get(static_cast<uint64_t>(decimal(line())));
            break;
        case 'Q':
            persistent(pop());
            break;
        case 'P':
            fail("a text persistent reference (TorchScript writes BINPERSID)");
        default: {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", op);
            fail(std::string("an instruction (") + hex + ") that is not a pickle instruction LibTorch reads");
        }
        }
    }

    std::string_view in_;
    const PickleScanner::RecordSize& recordSize_;
    size_t pos_ = 0, at_ = 0;
    std::vector<Ref> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, Ref> memo_;
    std::vector<PickleScanner::StorageReference> storages_;
};

}  // namespace

int64_t PickleScanner::elementSize(const std::string& storageType) {
    for (const auto& storage : model_checks::kStorageElementBytes)
        if (storageType == storage.name) return storage.bytes;
    return 0;
}

std::vector<PickleScanner::StorageReference> PickleScanner::scan(std::string_view pickle, const RecordSize& recordSize) {
    if (pickle.empty()) throw Error("byte 0: the pickle is empty");
    // Nesting is capped at kMaxNesting, so releasing the values (recursively) stays shallow.
    return Machine(pickle, recordSize).run();
}

}  // namespace alignscope::core
