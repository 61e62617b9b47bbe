import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** One look for every empty list: what happened, and what to do next. */
export function EmptyState({
  icon,
  title,
  description,
  action,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  action?: { label: string; to: string };
}) {
  return (
    <Paper withBorder radius="lg" p="xl">
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light">
          {icon}
        </ThemeIcon>
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text c="dimmed" maw={480}>
          {description}
        </Text>
        {action ? (
          <Button component={Link} to={action.to} radius="xl" mt="xs">
            {action.label}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}
