// Mantine's stylesheet, cut to the components the site renders: the root imports this module
// instead of '@mantine/core/styles.css' (which styled every Mantine component, render-blocking on
// every page; docs/performance.md, "Stylesheets"). The build loads each file as the whole stylesheet
// writes it (scripts/lib/mantine-styles.ts).
//
// - Mantine's global files come first: the reset, the theme's default variables (app/lib/theme.ts
//   writes only those it changes) and the global classes.
// - Then one file per component, in the order of Mantine's whole stylesheet, where a component's
//   rules follow those of the components it is built on.
// - A component the app imports from '@mantine/core' needs its file here, and so does every component
//   Mantine renders inside it; those are marked "inside …" below. TextInput, Textarea and NativeSelect
//   have no file of their own: they are an Input (NativeSelect's chevron is a Combobox's).
// - tests/unit/mantine-styles.test.ts follows each component the app imports through Mantine's
//   modules and fails on a file missing here, one here that nothing renders, or one out of order.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/ScrollArea.css'; // inside Table.ScrollContainer
import '@mantine/core/styles/UnstyledButton.css'; // inside ActionIcon, Burger, Button, CloseButton, NavLink, Tabs
import '@mantine/core/styles/VisuallyHidden.css'; // inside Modal (its focus trap)
import '@mantine/core/styles/Paper.css'; // inside Card and Modal
import '@mantine/core/styles/Overlay.css'; // inside Modal
import '@mantine/core/styles/Loader.css'; // inside Button and ActionIcon while loading
import '@mantine/core/styles/ActionIcon.css'; // inside PasswordInput (show / hide)
import '@mantine/core/styles/CloseButton.css'; // inside Alert, Modal, inputs
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/ModalBase.css'; // inside Modal
import '@mantine/core/styles/Input.css'; // inside TextInput, Textarea, NativeSelect, PasswordInput, Checkbox, Radio, Switch
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Text.css'; // inside Anchor
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Combobox.css'; // inside NativeSelect (its chevron)
import '@mantine/core/styles/InlineInput.css'; // inside Checkbox, Radio, Switch
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/Fieldset.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/NavLink.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Progress.css'; // also inside the page-load bar (@mantine/nprogress)
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Timeline.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Typography.css';
