#include "ui/LessonsMenu.h"

#include "ui/Lesson.h"
#include "ui/LessonLanguage.h"

#include "core/platform/InstallLayout.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

namespace alignscope::ui {

void LessonsMenu::addLessons(QMenu* menu, QWidget* dialogParent, const std::function<void(const QString& path)>& start) {
    int number = 0;
    for (const auto& path : Lesson::shippedLessons()) {
        ++number;
        const QString mnemonic = number <= 9 ? QStringLiteral("&%1 ").arg(number) : QStringLiteral("%1 ").arg(number);
        try {
            // In the interface's language where the lesson has it; else in English, saying so.
            const auto lesson = Lesson::loadHeading(path, LessonLanguage::interfaceLanguage());
            const QString note = LessonLanguage::fallbackNote(lesson);
            QString label = mnemonic + QString(lesson.title).replace(QLatin1Char('&'), QStringLiteral("&&"));
            if (!note.isEmpty()) label += QStringLiteral(" (%1)").arg(note);
            menu->addAction(label, menu, [start, path] { start(path); })->setToolTip(lesson.summary);
        } catch (const std::exception&) {
            menu->addAction(mnemonic + QFileInfo(path).fileName())->setEnabled(false);
        }
    }
    menu->addAction(QMenu::tr("&Open lesson file…"), menu, [dialogParent, start] {
        const QString path =
            QFileDialog::getOpenFileName(dialogParent, QMenu::tr("Open lesson"),
                                         QString::fromStdString(core::InstallLayout::lessonsDirectory()), QMenu::tr("Lessons (*.json)"));
        if (!path.isEmpty()) start(path);
    });
}

}  // namespace alignscope::ui
